/**
 * Issue 19: a bot process killed mid-purchase (SIGKILL while its POST waits for an answer) and started again
 * resolves the order to its own record by the customer_ref it journalled BEFORE the POST, on an account
 * another buyer shares (VTU_TOKEN_SHARED=true) and beside that buyer's identical record. The real bot
 * (`bot/main.ts`), the sandbox over HTTP (it stores and echoes customer_ref) and the fake Bot API; every
 * step waits for a condition, never for time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VtuClient, type PurchaseRequest } from '../../client';
import { openDatabase } from '../../bot/db';
import { Journal } from '../../bot/journal';
import { SandboxAdmin } from '../../sandbox/admin-client';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { rawBuy } from '../client/helpers';
import { FakeTelegram, makeUser, type FakeUser } from './fake-telegram';
import { BOT_TOKEN, runBot } from './harness';
import { pattern } from './texts';

let sb: Sandbox;
let admin: SandboxAdmin;
let tg: FakeTelegram;
let dir: string;
beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
	admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
	tg = await new FakeTelegram().start();
	dir = mkdtempSync(join(tmpdir(), 'vtu-crash-ref-'));
});
afterAll(async () => {
	await tg.close();
	await sb.close();
	rmSync(dir, { recursive: true, force: true });
});

/** Press a button once it is shown. */
async function press(u: FakeUser, match: RegExp | string): Promise<void> {
	await tg.waitFor(() => tg.findButton(u.id, match) !== undefined, 20_000, `button ${match}`);
	tg.press(u, match);
}

/** The account's data records carrying a customer_ref (what the sandbox stored from the POSTs). */
async function recordsWithRef(): Promise<{ id: number; customerRef: string | null }[]> {
	const txns = await admin.transactions({ username: sb.demo.username, product: 'data' });
	return txns.filter((x) => x.customerRef);
}

test('killed mid-purchase, restarted: the order finds its own record by the journalled customer_ref', async () => {
	await admin.reset();
	await admin.setConfig({ customer_ref: true });
	const u = makeUser(undefined, 'Crash');
	const db = join(dir, 'bot.sqlite');
	const env = {
		TELEGRAM_BOT_TOKEN: BOT_TOKEN,
		VTU_BASE_URL: sb.baseUrl,
		VTU_API_TOKEN: sb.demo.token,
		BOT_ALLOWED_IDS: String(u.id),
		BOT_DB_PATH: db,
		TELEGRAM_API_ROOT: tg.apiRoot,
		VTU_TOKEN_SHARED: 'true', // other buyers use the token: a lone matching record is never adopted blind
		VTU_CUSTOMER_REF: 'true',
	};
	let p = runBot(env);
	try {
		tg.sendText(u, '/data');
		await press(u, 'MTN');
		await press(u, /^1GB SME /);
		await tg.waitForText(u.id, /phone number/, 20_000);
		tg.sendText(u, '0803 123 4567');
		await tg.waitFor(() => tg.findButton(u.id, /^confirm:/) !== undefined, 20_000, 'confirm button');
		// the vendor debits and records the purchase, then never answers: the bot waits inside its POST
		await admin.addFault({ endpoint: 'POST /api/data/', kind: 'timeout_after', count: 1 });
		tg.press(u, /^confirm:/);
		let own: { id: number; customerRef: string | null }[] = [];
		const poll = setInterval(() => void recordsWithRef().then((r) => (own = r)), 50);
		try {
			await tg.waitFor(() => own.length === 1, 20_000, 'the record of the POST');
		} finally {
			clearInterval(poll);
		}
		// the journal knew the reference before the POST went out: it is there while the POST still hangs
		const journal = new Journal(openDatabase(db));
		const [order] = journal.recentForUser(u.id);
		expect(order).toMatchObject({ state: 'sent', customerRef: own[0].customerRef });
		p.child.kill('SIGKILL');
		await p.exited;

		// another buyer of the account buys the identical bundle meanwhile (no reference): a twin in the window
		const client = new VtuClient({ baseUrl: sb.baseUrl, token: sb.demo.token });
		const twin = await rawBuy(client, sb.demo.token, order.request as unknown as PurchaseRequest);
		expect(twin).not.toBe(own[0].id);

		p = runBot(env); // start-up reconciles what the crash left in `sent`
		await tg.waitForText(u.id, pattern('notice-restart'), 30_000);
		const after = journal.get(order.id)!;
		expect(after).toMatchObject({ state: 'successful', vendorId: own[0].id, customerRef: own[0].customerRef });
		expect(after.vendorId).not.toBe(twin);
	} finally {
		if (p.child.exitCode === null) p.child.kill('SIGKILL');
		await p.exited;
	}
}, 120_000);
