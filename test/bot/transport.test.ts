/**
 * Long polling (bot/polling.ts: @grammyjs/runner + sequentialize) through the fake Bot API's
 * getUpdates, and webhook mode over HTTP with a secret token. Real Redis: redis.test.ts.
 */
import type { VtuClient } from '../../client';
import { startPolling, type Poller } from '../../bot/polling';
import { startWebhookServer } from '../../bot/server';
import type { BotPurchaseRequest, VtuClientLike } from '../../bot/vtu';
import { useBotEnv } from './harness';
import { lines, pattern, source, text, what } from './texts';
import { until } from '../until';

const env = useBotEnv();

async function poll(app: Awaited<ReturnType<typeof env.makeBot>>): Promise<Poller> {
	const p = await startPolling(app.bot, { timeoutSeconds: 5 });
	env.cleanup(() => p.stop());
	return p;
}

/** The real client, but every purchase waits until the test opens the gate (a slow vendor). */
function gatedClient(c: VtuClient) {
	let open!: () => void;
	let gate = new Promise<void>((r) => (open = r));
	const started: BotPurchaseRequest[] = [];
	// Never leave a purchase hanging after a failed test (the poller's stop would wait for it).
	env.cleanup(() => open());
	const client: VtuClientLike = {
		user: c.user,
		catalog: c.catalog,
		quote: (r) => c.quote(r as never),
		buy: async (r, o) => {
			started.push(r);
			await gate;
			return c.buy(r as never, o);
		},
		reconcile: (r, o) => c.reconcile(r as never, o),
		transactions: c.transactions,
		sms: c.sms,
		cable: c.cable,
		electricity: c.electricity,
	};
	return {
		client: client as unknown as VtuClient,
		started,
		release() {
			open();
			gate = new Promise<void>((r) => (open = r));
		},
	};
}

async function walkToConfirm(
	u: typeof env.alice,
	phone: string,
	confirm: RegExp = lines(
		['confirm-question-for', { price: '₦250.00', target: /.+/ }],
		['confirm-gets', { gets: /.*/ }],
		['confirm-pay', { price: '₦250.00' }],
	),
): Promise<void> {
	env.tg.sendText(u, '/data');
	await env.tg.waitForText(u.id, /choose the network/);
	env.tg.press(u, 'MTN');
	await env.tg.waitForText(u.id, /choose a plan/);
	env.tg.press(u, /^1GB SME /);
	await env.tg.waitForText(u.id, /Send the MTN phone number/);
	env.tg.sendText(u, phone);
	await env.tg.waitForText(u.id, confirm);
}

test('long polling: getUpdates with offset drives a whole data purchase; stop() confirms the offset', async () => {
	const app = await env.makeBot();
	const u = env.alice;
	const poller = await poll(app);
	env.tg.sendText(u, '/balance');
	await env.tg.waitForText(u.id, /Wallet balance: ₦1,000,000\.00/);
	await walkToConfirm(
		u,
		'08031234567',
		lines(
			[
				'confirm-question-for',
				{ price: '₦250.00', target: text('phone-target', { phone: '0803 123 4567', network: 'MTN' }) },
			],
			[
				'confirm-gets',
				{ gets: what('MTN data 1GB SME (30 days)', text('phone-target', { phone: '0803 123 4567', network: 'MTN' })) },
			],
			['confirm-pay', { price: '₦250.00' }],
		),
	);
	const confirm = env.tg.buttonUpdate(u, /^confirm:/);
	env.tg.enqueue(confirm);
	env.tg.enqueue(confirm); // Telegram re-sends an update (same update_id)
	await env.tg.waitForText(u.id, /^✅ Delivered/);
	await poller.stop();
	expect(poller.isRunning()).toBe(false);
	expect(env.tg.pendingUpdates).toBe(0);
	expect(env.logs.filter((l) => l.includes('duplicate update ignored'))).toHaveLength(1);
	expect(await env.debits()).toBe(1);
	const offsets = env.tg.callsOf('getUpdates').map((c) => Number(c.payload.offset ?? 0));
	expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
});

test('long polling is concurrent across users: one purchase waiting on the vendor does not block others', async () => {
	const g = gatedClient(env.client);
	const app = await env.makeBot({}, env.dbPath, g.client);
	await poll(app);
	const a = env.alice;
	const b = env.bob;
	await walkToConfirm(a, '08031234567');
	const from = env.tg.calls.length;
	env.tg.press(a, /^confirm:/);
	await until(() => g.started.length === 1, 'the purchase to reach the vendor');
	// Bob is not blocked by Alice's purchase (bot.start() would handle nothing until it returns).
	env.tg.sendText(b, '/balance');
	await env.tg.waitForText(b.id, /^💰 Wallet balance/, 20_000, from);
	await walkToConfirm(b, '08061234567');
	expect(env.tg.textsTo(a.id).slice(-1)[0]).toMatch(pattern('confirm-sending', { what: /[^]*/ }));
	g.release();
	await env.tg.waitForText(a.id, /^✅ Delivered/, 20_000, from);
	expect(await env.debits()).toBe(1);
});

test('same chat, purchase at the vendor: reading commands answer at once; 2nd Confirm, new flow wait', async () => {
	const g = gatedClient(env.client);
	const app = await env.makeBot({}, env.dbPath, g.client);
	await poll(app);
	const a = env.alice;
	await walkToConfirm(a, '08031234567');
	const from = env.tg.calls.length;
	const seen = env.tg.textsTo(a.id).length;
	const tap = env.tg.buttonUpdate(a, /^confirm:/);
	const ref = String(tap.callback_query.data).split(':')[1];
	const secondTap = env.tg.buttonUpdate(a, /^confirm:/); // a new update: the customer taps Confirm again
	env.tg.enqueue(tap);
	await until(() => g.started.length === 1, 'the purchase to reach the vendor');
	env.tg.enqueue(secondTap);
	env.tg.sendText(a, '/data');
	for (const c of ['/balance', '/help', '/history', `/status ${ref}`]) env.tg.sendText(a, c);
	// The vendor holds the purchase until every reading command has its answer.
	await env.tg.waitForText(a.id, /^💰 Wallet balance/, 20_000, from);
	await env.tg.waitForText(a.id, new RegExp(`^${source('help-intro')}`), 20_000, from);
	await env.tg.waitForText(a.id, /^🧾 Recent orders/, 20_000, from);
	await env.tg.waitForText(a.id, pattern('order-title', { product: /.+/, date: /.+/ }), 20_000, from);
	expect(g.started).toHaveLength(1);
	// Still at the vendor: the second tap and /data queue behind the purchase (nothing of them is said yet).
	expect(
		env.tg
			.textsTo(a.id)
			.slice(seen)
			.filter((x) => /^✅ Delivered|choose the network/.test(x)),
	).toEqual([]);
	expect(env.tg.answers()).not.toContain(text('confirm-already-bought', { ref }));
	g.release();
	const ok = await env.tg.waitForText(a.id, /^✅ Delivered/, 20_000, from);
	const next = await env.tg.waitForText(a.id, /choose the network/, 20_000, from);
	const texts = env.tg.textsTo(a.id);
	expect(texts.lastIndexOf(next)).toBeGreaterThan(texts.lastIndexOf(ok));
	await env.tg.waitFor(() => env.tg.answers().includes(text('confirm-already-bought', { ref })), 20_000, 'second tap');
	expect(g.started).toHaveLength(1);
	expect(await env.debits()).toBe(1);
});

test('stopping the poller waits for a purchase in flight, then confirms the offset', async () => {
	const g = gatedClient(env.client);
	const app = await env.makeBot({}, env.dbPath, g.client);
	const poller = await poll(app);
	const u = env.alice;
	await walkToConfirm(u, '08031234567');
	env.tg.press(u, /^confirm:/);
	await until(() => g.started.length === 1, 'the purchase to reach the vendor');
	let stopped = false;
	const stopping = poller.stop().then(() => (stopped = true));
	await new Promise((r) => setTimeout(r, 300));
	expect(stopped).toBe(false);
	expect(poller.inFlight()).toBe(1);
	g.release();
	await stopping;
	expect(env.tg.lastText(u.id)).toMatch(/^✅ Delivered/);
	expect(await env.debits()).toBe(1);
	// The final getUpdates(offset = last + 1) confirmed every update that was handled.
	expect(env.tg.pendingUpdates).toBe(0);
	// Updates arriving after the stop are left for the next start, not taken.
	env.tg.sendText(u, '/balance');
	await new Promise((r) => setTimeout(r, 200));
	expect(env.tg.pendingUpdates).toBe(1);
});

test('webhook mode: webhookCallback(bot, "http", { secretToken }) refuses a bad secret, takes the right', async () => {
	const app = await env.makeBot();
	const secret = 'webhook_secret_0123456789';
	const srv = await startWebhookServer(app.bot, { path: '/tg/hook', secretToken: secret, port: 0, host: '127.0.0.1' });
	try {
		const url = `http://127.0.0.1:${srv.port}/tg/hook`;
		const post = (update: unknown, token?: string) =>
			fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...(token ? { 'x-telegram-bot-api-secret-token': token } : {}) },
				body: JSON.stringify(update),
			});
		expect((await post(env.tg.textUpdate(env.alice, '/balance'))).status).toBe(401);
		expect((await post(env.tg.textUpdate(env.alice, '/balance'), 'wrong_secret_000000000')).status).toBe(401);
		expect(env.tg.textsTo(env.alice.id)).toHaveLength(0);
		expect((await post(env.tg.textUpdate(env.alice, '/balance'), secret)).status).toBe(200);
		expect(env.tg.lastText(env.alice.id)).toBe('💰 Wallet balance: ₦1,000,000.00');
		expect((await fetch(`http://127.0.0.1:${srv.port}/healthz`)).status).toBe(200);
		expect((await fetch(`http://127.0.0.1:${srv.port}/other`, { method: 'POST' })).status).toBe(404);
	} finally {
		await srv.close();
	}
});

test('auto-retry on bot.api and inside conversations: a 429 from the Bot API is retried', async () => {
	const app = await env.makeBot();
	env.tg.failNext('sendMessage', {
		error_code: 429,
		description: 'Too Many Requests: retry after 1',
		parameters: { retry_after: 1 },
	});
	await env.send(app, env.tg.textUpdate(env.alice, '/balance'));
	expect(env.tg.lastText(env.alice.id)).toBe('💰 Wallet balance: ₦1,000,000.00');
	env.tg.failNext('sendMessage', {
		error_code: 429,
		description: 'Too Many Requests: retry after 1',
		parameters: { retry_after: 1 },
	});
	await env.send(app, env.tg.textUpdate(env.alice, '/data')); // sent from inside the conversation
	expect(env.tg.lastText(env.alice.id)).toBe('Buy data: choose the network.');
	expect(env.tg.callsOf('sendMessage').filter((c) => c.payload.text === 'Buy data: choose the network.')).toHaveLength(
		2,
	);
});
