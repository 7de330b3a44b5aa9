/**
 * Journey: a restart mid-order. The real bot process (`bot/main.ts`, polling the local Bot API) is killed
 * while the vendor holds its purchase (a proxy in front of the real sandbox parks the POST); the vendor
 * then makes the purchase (or never receives it); the bot is started again. Till: the in-flight "Sending…"
 * message is edited to the outcome, the customer is told after the restart, the wallet is charged at most
 * once, and the order's reference is the same in every message from the first to the last. Storefront:
 * the "Buying…" message is edited to the outcome with the same reference, the wallet charged once.
 */
import { join } from 'node:path';
import { audit } from '../../store/ledger';
import { openStoreDb } from '../../store/db';
import { PaymentSandbox } from '../../store/sandbox/payments';
import { BOT_TOKEN, runBot, useBotEnv } from './harness';
import type { FakeUser } from './fake-telegram';
import { HoldProxy } from './journeys-kit';
import { until } from '../until';
import { afterRestart, notChargedOutcome, outcomeHead, pattern, source, what } from './texts';

const env = useBotEnv();
const ITEM = what('MTN data 1GB SME (30 days)', '0803 123 4567');
const REF = new RegExp(source('outcome-reference', { ref: /(\S+)/ }));

async function press(u: FakeUser, match: RegExp | string): Promise<void> {
	await env.tg.waitFor(() => env.tg.findButton(u.id, match) !== undefined, 30_000, `button ${match}`);
	env.tg.press(u, match);
}

test.each([
	['the vendor made the purchase', 'lift', 'successful'],
	['the vendor never received it', 'drop', 'not_charged'],
] as const)(
	'till: killed while the vendor holds the purchase (%s), started again: edited to the outcome',
	async (_, end, state) => {
		const proxy = await new HoldProxy(env.sb.baseUrl).start();
		env.cleanup(() => proxy.close());
		const u = env.alice;
		const botEnv = {
			TELEGRAM_BOT_TOKEN: BOT_TOKEN,
			VTU_BASE_URL: proxy.baseUrl,
			VTU_API_TOKEN: env.sb.demo.token,
			BOT_ALLOWED_IDS: String(u.id),
			BOT_DB_PATH: env.dbPath,
			TELEGRAM_API_ROOT: env.tg.apiRoot,
			// the sandbox records a purchase before it answers: a missing record proves "not charged" at once
			VTU_MAX_PROCESSING_SECONDS: '0',
		};
		let p = runBot(botEnv);
		env.cleanup(async () => {
			if (p.child.exitCode === null) p.child.kill('SIGKILL');
			await p.exited;
		});
		env.tg.sendText(u, '/data');
		await press(u, 'MTN');
		await press(u, /^1GB SME /);
		await env.tg.waitForText(u.id, new RegExp(source('phone-prompt', { network: 'MTN' })), 30_000);
		env.tg.sendText(u, '0803 123 4567');
		await env.tg.waitFor(() => env.tg.findButton(u.id, /^confirm:/) !== undefined, 30_000, 'the Confirm button');
		const confirmMsg = env.tg.findButton(u.id, /^confirm:/)!.messageId;

		// the vendor holds the purchase: the bot shows "Sending…" (with the order's reference) and waits
		const hold = proxy.hold('POST', '/api/data/');
		env.tg.press(u, /^confirm:/);
		await hold.reached;
		const sending = await env.tg.waitForText(u.id, new RegExp(`^${source('confirm-sending', { what: ITEM })}`), 30_000);
		const ref = REF.exec(sending)![1];
		p.child.kill('SIGKILL');
		await p.exited;

		// the vendor goes on with the purchase the dead process sent, or never receives it
		if (end === 'lift') {
			hold.lift();
			await until(async () => (await env.debits()) === 1, 'the vendor to record the purchase');
		} else hold.drop();

		const before = env.tg.calls.length;
		p = runBot(botEnv);
		const outcome = state === 'successful' ? outcomeHead(state, ITEM) : notChargedOutcome(ITEM);
		const delivered = new RegExp(`^${outcome}`);
		await env.tg.waitFor(
			() =>
				env.tg
					.callsOf('editMessageText')
					.some((c) => c.payload.message_id === confirmMsg && delivered.test(String(c.payload.text))),
			60_000,
			'the in-flight message edited to its outcome',
		);
		await env.tg.waitForText(u.id, afterRestart(outcome), 30_000, before);
		// the outcome is on the message that said "Sending…", with the same reference
		const edits = env.tg
			.callsOf('editMessageText')
			.filter((c) => c.payload.message_id === confirmMsg)
			.map((c) => String(c.payload.text));
		expect(edits.at(-1)).toMatch(delivered);
		// one reference from first message to last: every message naming a reference names this one
		const refs = env.tg.textsTo(u.id).flatMap((x) => [...x.matchAll(new RegExp(REF.source, 'g'))].map((m) => m[1]));
		expect(refs.length).toBeGreaterThanOrEqual(3);
		expect(new Set(refs)).toEqual(new Set([ref]));
		expect(await env.debits()).toBe(end === 'lift' ? 1 : 0);
		expect(p.output()).not.toContain(env.sb.demo.token);
	},
	120_000,
);

const PAYSTACK = 'sk_test_journeys_restart_0123456789';

/** The storefront bot's environment: the vendor through `proxy`, the Paystack sandbox, a store file. */
async function storefrontEnv(proxy: HoldProxy): Promise<Record<string, string>> {
	const pay = new PaymentSandbox({
		paystackSecret: PAYSTACK,
		monnifyApiKey: 'MK_TEST_RESTART',
		monnifySecret: 'monnify-secret-restart-0123',
		adminKey: 'pay-admin-restart',
		webhookUrls: { paystack: [], monnify: [] },
	});
	const base = await pay.start();
	env.cleanup(() => pay.stop());
	return {
		TELEGRAM_BOT_TOKEN: BOT_TOKEN,
		VTU_BASE_URL: proxy.baseUrl,
		VTU_API_TOKEN: env.sb.demo.token,
		VTU_BOT_MODE: 'storefront',
		PAYSTACK_SECRET_KEY: PAYSTACK,
		PAYSTACK_BASE_URL: `${base}/paystack`,
		STORE_DB_PATH: join(env.dir, 'store.sqlite'),
		STORE_WEBHOOK_PORT: '0',
		BOT_HOST: '127.0.0.1',
		BOT_ADMIN_IDS: String(env.admin1.id),
		BOT_DB_PATH: env.dbPath,
		BOT_FOLLOW_INTERVAL_MS: '100',
		TELEGRAM_API_ROOT: env.tg.apiRoot,
		VTU_MAX_PROCESSING_SECONDS: '0',
	};
}

/** /start, a ₦5,000 credit from the owner, then /data up to the Pay button. */
async function toPay(u: FakeUser): Promise<void> {
	env.tg.sendText(u, '/start');
	const account = new RegExp(source('sf-account', { account: /\d+/, bank: /.+/, balance: /.+/ }));
	await env.tg.waitForText(u.id, account, 30_000);
	env.tg.sendText(env.admin1, `/credit ${u.id} 5000 opening float`);
	const credited = pattern('sf-credited-you', { amount: '₦5,000.00', reason: /.+/, balance: /.+/ });
	await env.tg.waitForText(u.id, credited, 30_000);
	env.tg.sendText(u, '/data');
	await press(u, 'MTN');
	await press(u, /^1GB SME /);
	await env.tg.waitForText(u.id, new RegExp(source('phone-prompt', { network: 'MTN' })), 30_000);
	env.tg.sendText(u, '0803 123 4567');
	await env.tg.waitFor(() => env.tg.findButton(u.id, /^pay:y$/) !== undefined, 30_000, 'the Pay button');
}

test('storefront: killed while the vendor holds the purchase, restarted: "Buying…" becomes the outcome', async () => {
	const proxy = await new HoldProxy(env.sb.baseUrl).start();
	env.cleanup(() => proxy.close());
	const botEnv = await storefrontEnv(proxy);
	const storePath = botEnv.STORE_DB_PATH;
	const u = env.alice;
	let p = runBot(botEnv);
	env.cleanup(async () => {
		if (p.child.exitCode === null) p.child.kill('SIGKILL');
		await p.exited;
	});
	await toPay(u);
	const confirmMsg = env.tg.findButton(u.id, /^pay:y$/)!.messageId;

	const hold = proxy.hold('POST', '/api/data/');
	env.tg.press(u, /^pay:y$/);
	await hold.reached;
	const buying = await env.tg.waitForText(u.id, pattern('sf-sending', { gets: /.+/ }), 30_000);
	const ref = REF.exec(buying)![1];
	p.child.kill('SIGKILL');
	await p.exited;
	hold.lift();
	await until(async () => (await env.debits()) === 1, 'the vendor to record the purchase');

	// another instance could still be placing a held order for a while (the processing bound + a grace); the
	// order is made older than that instead of waiting for the clock
	const store = await openStoreDb({ sqlitePath: storePath });
	await store.db
		.updateTable('orders')
		.set({ created_at: new Date(Date.now() - 3_600_000).toISOString() })
		.execute();
	await store.close();

	const before = env.tg.calls.length;
	p = runBot(botEnv);
	const price = '₦250.00'; // no markup set: the vendor's cost
	const settled = pattern('sf-later-settled', { price, balance: '₦4,750.00' });
	const editedTo = (re: RegExp) =>
		env.tg
			.callsOf('editMessageText')
			.some((c) => c.payload.message_id === confirmMsg && re.test(String(c.payload.text)));
	const noticed = () =>
		env.tg.calls.slice(before).some((c) => c.method === 'sendMessage' && Number(c.payload.chat_id) === u.id);
	await env.tg.waitFor(() => editedTo(settled) && noticed(), 60_000, '"Buying…" edited to its outcome, and a notice');
	p.child.kill('SIGTERM');
	await p.exited;
	for (const secret of [PAYSTACK, env.sb.demo.token]) expect(p.output()).not.toContain(secret);
	const after = await openStoreDb({ sqlitePath: storePath });
	try {
		const a = await audit(after.db);
		expect(a.problems).toEqual([]);
		expect([a.spent, a.wallets]).toEqual([25_000, 500_000 - 25_000]);
	} finally {
		await after.close();
	}
	// told once: the message that said "Buying…" edited to the end, and one new message that notifies
	expect(env.tg.textsTo(u.id).filter((x) => settled.test(x))).toHaveLength(2);
	const sentAfter = env.tg.calls
		.slice(before)
		.filter((c) => c.method === 'sendMessage' && Number(c.payload.chat_id) === u.id);
	expect(sentAfter.map((c) => String(c.payload.text))).toEqual([expect.stringMatching(settled)]);
	// one reference from the Confirm question to the outcome
	const edits = env.tg.callsOf('editMessageText').filter((c) => c.payload.message_id === confirmMsg);
	expect(String(edits.at(-1)!.payload.text)).toMatch(settled);
	const refs = env.tg.textsTo(u.id).flatMap((x) => [...x.matchAll(new RegExp(REF.source, 'g'))].map((m) => m[1]));
	expect(refs.length).toBeGreaterThanOrEqual(3);
	expect(new Set(refs)).toEqual(new Set([ref]));
	expect(await env.debits()).toBe(1);
}, 120_000);
