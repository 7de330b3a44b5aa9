/**
 * Issue 19, item 2: a bot killed and restarted during a slow purchase (the vendor creates the record only
 * when it finishes) must never tell the user "not charged" while the debit stands. The restarted bot keeps
 * the order "being checked" until the record appears (then Delivered), and says "not charged" only once the
 * vendor's processing bound has passed with no record.
 */
import { openDatabase } from '../../bot/db';
import { Journal } from '../../bot/journal';
import { rawBuy } from '../client/helpers';
import { newProcessMemory, useBotEnv } from './harness';
import { afterRestart, notChargedOutcome, outcomeHead, saysNotCharged, unknownOutcome, updateOn, what } from './texts';
import { until } from '../until';

const env = useBotEnv();
const limits = { maxPurchaseKobo: 1e9, dailyLimitKobo: 1e9 };
const BOUND_MS = 60_000;
const req = { product: 'data', network: 1, plan: 2, phone: '08031234567', ported: false };

/** A clock the test moves: the follower's due times and the processing bound are judged on it. */
function testClock() {
	let offset = 0;
	return { now: () => Date.now() + offset, advance: (ms: number) => void (offset += ms) };
}

/** The crashed process: the journal says `sent`; returns the order id. */
function crashedOrder(userId: number): string {
	const db = openDatabase(env.dbPath);
	const journal = new Journal(db);
	const o = journal.create({
		userId,
		chatId: userId,
		product: 'data',
		request: req,
		description: 'MTN data 1GB SME (30 days)',
		recipient: req.phone,
		amountKobo: 25_000,
	});
	expect(journal.beginSend(o.id, limits).ok).toBe(true);
	db.close();
	return o.id;
}

const saidNotCharged = (chatId: number) => saysNotCharged(env.tg.textsTo(chatId));

test('restart mid slow purchase: "being checked", never "not charged"; Delivered once the record shows', async () => {
	const slow = await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'latency', latencyMs: 1500, count: 1 });
	const id = crashedOrder(env.alice.id);
	// The POST the killed process sent is still with the vendor: its record is created when the vendor finishes.
	const inFlight = rawBuy(env.client, env.sb.demo.token, req as never);
	await until(
		async () =>
			(await env.admin.faults()).find((f) => f.id === slow.id)?.hits === 1 || (await env.admin.faults()).length === 0,
		'the slow POST to reach the vendor',
	);
	newProcessMemory(); // the restarted process's client starts with an empty memory
	const clock = testClock();
	const app = await env.makeBot({ maxProcessingMs: BOUND_MS }, env.dbPath, env.clientFor(env.sb.demo.token), { clock });

	const o = app.journal.get(id)!;
	expect(o).toMatchObject({ state: 'unknown', notifiedState: 'unknown' });
	expect(o.recheckAt).toBeGreaterThanOrEqual(o.sentAt! + BOUND_MS); // not before the vendor can have finished
	expect(env.tg.lastText(env.alice.id)).toMatch(
		afterRestart(unknownOutcome(what('MTN data 1GB SME (30 days)', '0803 123 4567'))),
	);
	expect(env.tg.lastText(env.alice.id)).toContain(id); // the same reference the later update gives
	expect(saidNotCharged(env.alice.id)).toBe(false);

	const boughtId = await inFlight; // the vendor finished: ₦250 debited
	const bought = await env.client.transactions.get('data', boughtId);
	await app.follower.tick(); // not due yet: no check, nothing said
	expect(app.journal.get(id)!.state).toBe('unknown');
	clock.advance(BOUND_MS);
	await app.follower.tick();
	expect(app.journal.get(id)).toMatchObject({ state: 'successful', ident: bought.ident, notifiedState: 'successful' });
	expect(env.tg.lastText(env.alice.id)).toMatch(
		updateOn(id, outcomeHead('successful', what('MTN data 1GB SME (30 days)', '0803 123 4567'))),
	);
	expect(saidNotCharged(env.alice.id)).toBe(false);
	expect(await env.debits()).toBe(1);
});

test('restart, the POST never reached the vendor: unknown until the processing bound, then not charged', async () => {
	const id = crashedOrder(env.bob.id);
	newProcessMemory();
	const clock = testClock();
	const app = await env.makeBot({ maxProcessingMs: BOUND_MS }, env.dbPath, env.clientFor(env.sb.demo.token), { clock });
	expect(app.journal.get(id)!.state).toBe('unknown');
	expect(saidNotCharged(env.bob.id)).toBe(false);
	clock.advance(BOUND_MS / 2);
	await app.follower.tick();
	expect(app.journal.get(id)!.state).toBe('unknown'); // not due: still being checked
	clock.advance(BOUND_MS / 2);
	await app.follower.tick();
	expect(app.journal.get(id)).toMatchObject({ state: 'not_charged', notifiedState: 'not_charged' });
	expect(env.tg.lastText(env.bob.id)).toMatch(
		updateOn(/\S+/, notChargedOutcome(what('MTN data 1GB SME (30 days)', '0803 123 4567'))),
	);
	expect(await env.debits()).toBe(0);
});

test('an unclear answer carrying resolvableAfter: the next check is not before it', async () => {
	const id = crashedOrder(env.alice.id);
	const clock = testClock();
	const later = Date.now() + 10 * 60_000;
	const calls: number[] = [];
	const unclear = Object.assign(new Error('still unclear'), {
		code: 'unknown_outcome',
		details: { resolvableAfter: new Date(later).toISOString() },
	});
	const client = env.clientFor(env.sb.demo.token);
	const reconcile = client.reconcile.bind(client);
	client.reconcile = async (r, opts) => {
		calls.push(clock.now());
		if (calls.length === 1) throw unclear; // as the client answers while the vendor may still create the record
		return reconcile(r, opts);
	};
	const app = await env.makeBot({ maxProcessingMs: 0 }, env.dbPath, client, { clock });
	expect(app.journal.get(id)).toMatchObject({ state: 'unknown', recheckAt: later });
	clock.advance(5 * 60_000);
	await app.follower.tick();
	expect(calls).toHaveLength(1);
	clock.advance(5 * 60_000);
	await app.follower.tick();
	expect(calls).toHaveLength(2);
	expect(app.journal.get(id)!.state).toBe('not_charged'); // nothing was ever sent: proven once due
});
