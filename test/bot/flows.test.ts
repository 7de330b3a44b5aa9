import { useBotEnv, assertNoSecrets } from './harness';

const env = useBotEnv();

describe('bot flows against the real sandbox', () => {
  test('/start shows the menu and commands were registered', async () => {
    const app = await env.makeBot();
    expect(env.tg.callsOf('setMyCommands').length).toBeGreaterThanOrEqual(1);
    await env.send(app, env.tg.textUpdate(env.alice, '/start'));
    expect(env.tg.lastText(env.alice.id)).toMatch(/What would you like to do/);
    expect(env.tg.buttons(env.alice.id).map((b) => b.text)).toEqual(expect.arrayContaining(['📶 Buy data', '💰 Balance']));
  });

  test('/balance', async () => {
    const app = await env.makeBot();
    await env.send(app, env.tg.textUpdate(env.alice, '/balance'));
    expect(env.tg.lastText(env.alice.id)).toBe('💰 Wallet balance: ₦1,000,000.00');
    assertNoSecrets(env);
  });

  test('/data: network → plan → phone → confirm → result with ident; one debit', async () => {
    const app = await env.makeBot();
    const u = env.alice;
    await env.send(app, env.tg.textUpdate(u, '/data'));
    expect(env.tg.lastText(u.id)).toMatch(/choose the network/);
    await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
    expect(env.tg.lastText(u.id)).toMatch(/MTN data: choose a plan/);
    console.log(env.tg.buttons(u.id));
    await env.send(app, env.tg.buttonUpdate(u, /^plan:/));
    await env.send(app, env.tg.textUpdate(u, '0803 123 4567'));
    console.log(env.tg.textsTo(u.id));
    await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
    console.log(env.tg.textsTo(u.id), env.logs);
    expect(await env.debits()).toBe(1);
    assertNoSecrets(env);
  });
});
