/**
 * Journey: a restart mid-order. The real bot process (`bot/main.ts`, polling the local Bot API) is killed
 * while the vendor holds its purchase (a proxy in front of the real sandbox parks the POST); the vendor
 * then makes the purchase; the bot is started again. The in-flight "Sending…" message is edited to the
 * outcome, the customer is told after the restart, the wallet is charged once, and the order's reference
 * is the same in every message from the first to the last.
 */
import { BOT_TOKEN, useBotEnv } from './harness';
import type { FakeUser } from './fake-telegram';
import { HoldProxy, runBot, until } from './journeys-kit';
import { afterRestart, notChargedOutcome, outcomeHead, source, what } from './texts';

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

test.todo(
	'storefront: killed mid-order and started again, the in-flight "Buying…" message is edited to its outcome ' +
		'(missing: a held storefront order is followed only once the processing bound + 60 s have passed, and the ' +
		"store follower sends a new message instead of editing the flow's message, whose id it does not keep)",
);
