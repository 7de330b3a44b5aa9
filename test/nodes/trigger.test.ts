/** VTU Transaction Trigger: real PollContext ('trigger' mode, persisted static data) and a manual run. */
import { VtuData } from '../../nodes/VtuData/VtuData.node';
import { VtuTransactionTrigger } from '../../nodes/VtuTransactionTrigger/VtuTransactionTrigger.node';
import { activeTrigger, runNode, runTriggerManually } from './engine';
import { useVtuSandbox } from './helpers';

const env = useVtuSandbox();
const trigger = new VtuTransactionTrigger();
const data = new VtuData();

async function buyData(phone = '08031234567') {
  const r = await runNode(data, { parameters: { operation: 'buy', network: 1, plan: 2, phone }, creds: env.creds() });
  expect(r.error).toBeUndefined();
  return r.items[0].json as { id: number; ident: string; status: string };
}
const events = (out: Awaited<ReturnType<ReturnType<typeof activeTrigger>['poll']>>) =>
  (out?.[0] ?? []).map((i) => `${i.json.event}:${i.json.ident}:${i.json.status}`);

describe('VTU Transaction Trigger', () => {
  test('first poll remembers; new transaction emitted once; re-polls emit nothing', async () => {
    const old = await buyData();
    const t = activeTrigger(trigger, { product: 'data', watch: 'recent' }, env.creds());
    expect(await t.poll()).toBeNull();
    const fresh = await buyData('08031234568');
    expect(events(await t.poll())).toEqual([`new:${fresh.ident}:successful`]);
    expect(await t.poll()).toBeNull();
    expect(await t.poll()).toBeNull();
    const state = t.staticData['node:VTU'] as { t: Record<string, unknown> };
    expect(Object.keys(state.t)).toEqual(expect.arrayContaining([old.ident, fresh.ident]));
  });

  test('processing → successful, then successful → failed (reversal), each emitted exactly once', async () => {
    await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 250, finalStatus: 'successful' } });
    const t = activeTrigger(trigger, { product: 'data', watch: 'recent' }, env.creds());
    expect(await t.poll()).toBeNull();
    const p = await buyData();
    expect(p.status).toBe('processing');
    expect(events(await t.poll())).toEqual([`new:${p.ident}:processing`]);
    await new Promise((r) => setTimeout(r, 500));
    const done = await t.poll();
    expect(events(done)).toEqual([`completed:${p.ident}:successful`]);
    expect(done![0][0].json).toMatchObject({ previousStatus: 'processing', transition: 'processing → successful' });
    expect(await t.poll()).toBeNull();
    await env.admin.setStatus('data', p.id, 'failed');
    const rev = await t.poll();
    expect(events(rev)).toEqual([`reversed:${p.ident}:failed`]);
    expect(await t.poll()).toBeNull();
    expect(await t.poll()).toBeNull();
  });

  test('more new transactions between two polls than Pages to Scan holds: all emitted once (catch-up)', async () => {
    const t = activeTrigger(trigger, { product: 'data', watch: 'recent', options: { pages: 1 } }, env.creds());
    expect(await t.poll()).toBeNull();
    const bought: string[] = [];
    for (let i = 0; i < 40; i++) bought.push((await buyData(`0806123${String(4000 + i)}`)).ident); // 15 per page
    const out = events(await t.poll());
    expect(out.sort()).toEqual(bought.map((id) => `new:${id}:successful`).sort());
    expect(await t.poll()).toBeNull();
  });

  test('given references only, with an event filter', async () => {
    const a = await buyData('08031234561');
    const b = await buyData('08031234562');
    const t = activeTrigger(trigger, { product: 'data', watch: 'idents', idents: `${a.ident}`, events: ['reversed'] }, env.creds());
    expect(await t.poll()).toBeNull();
    await env.admin.setStatus('data', b.id, 'failed'); // not watched
    expect(await t.poll()).toBeNull();
    await env.admin.setStatus('data', a.id, 'failed');
    expect(events(await t.poll())).toEqual([`reversed:${a.ident}:failed`]);
    expect(await t.poll()).toBeNull();
  });

  test('static data stays bounded', async () => {
    for (let n = 0; n < 25; n++) await buyData(`080312345${String(n).padStart(2, '0')}`);
    const t = activeTrigger(trigger, { product: 'data', watch: 'recent', options: { maxTracked: 20, pages: 2 } }, env.creds());
    expect(await t.poll()).toBeNull();
    const state = t.staticData['node:VTU'] as { t: Record<string, unknown>; maxId: number };
    expect(Object.keys(state.t).length).toBeLessThanOrEqual(20);
    expect(state.maxId).toBe(25);
    expect(JSON.stringify(state).length).toBeLessThan(2000);
  });

  test('manual mode ("Test step") returns the current transactions instead of nothing', async () => {
    const empty = await runTriggerManually(trigger, { parameters: { product: 'data', watch: 'recent' }, creds: env.creds() });
    expect(empty.items).toHaveLength(1);
    expect(empty.items[0].json.message).toMatch(/No data transactions yet/);
    const a = await buyData();
    const r = await runTriggerManually(trigger, { parameters: { product: 'data', watch: 'recent' }, creds: env.creds() });
    expect(r.error).toBeUndefined();
    expect(r.items[0].json).toMatchObject({ event: 'current', ident: a.ident, status: 'successful' });
  });
});
