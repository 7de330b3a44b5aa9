/**
 * The storefront chaos lane through real bots (`npm run chaos -- --storefront`): each instance is the
 * project's bot in storefront mode, in its own OS process (bench/chaos-storefront-bot.ts), in Telegram
 * webhook mode behind a "load balancer" (this driver) that sends every update of every customer to a random
 * instance; all of them talk to one local Bot API (tools/local-bot-api.ts), as one bot token does. Two
 * instances share one Postgres store database and one journal file (conversations, update dedupe); a second
 * run has one instance on SQLite. Paystack on Postgres, Monnify on SQLite.
 *
 * Customers are Telegram users sending real updates: /start (their account number is read from the bot's
 * answer), then /data or /airtime, a network, a plan or amount, a phone number and the Confirm tap; a
 * quarter of the taps are double taps delivered to both instances at the same moment. Funding goes through
 * the payment sandbox to every instance's payment webhook server, with the store lane's webhook faults
 * (bench/chaos-storefront.ts `fund`/`forge`: replays, both instances at once, delays, held back and
 * delivered late in shuffled order, forged copies and invented payments, unconfirmed payments, outages of the
 * confirmation call, transfers to no customer). The vendor meets the same faults and late refunds; the bots'
 * own followers finish what is open. The audit is the store lane's (both sandboxes' books against the store's
 * database), plus what the customers were told: every credited payment announced to its customer once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PRODUCT_TABLE } from '../client/products/registry';
import { SandboxAdmin } from '../sandbox/admin-client';
import { Rng } from '../sandbox/rng';
import { startSandbox } from '../sandbox/server';
import { openStoreDb } from '../store/db';
import { Books } from '../store/ledger';
import { PaymentSandbox } from '../store/sandbox/payments';
import { FakeTelegram, type FakeUser } from '../tools/local-bot-api';
import { auditRun } from './chaos-storefront-audit';
import {
	armVendor,
	database,
	fund,
	forge,
	int,
	laneSettings,
	lateTraffic,
	perBackend,
	pool,
	retryUndelivered,
	sharedStats,
	type FundContext,
	type RunStats,
	type StorefrontChaosOptions,
} from './chaos-storefront';

const REPO = path.resolve(__dirname, '..');
export const BOT_TOKEN = '7000001:chaos-storefront-lane-bot-token';
export const HOOK_SECRET = 'chaos-storefront-telegram-secret';
export const OWNER_ID = 4_999_999;
export const SECRETS = {
	paystackSecret: 'sk_test_chaos_bots',
	monnifyApiKey: 'MK_TEST_CHAOS_BOTS',
	monnifySecret: 'monnify-chaos-bots-secret',
	adminKey: 'chaos-bots-admin',
};
/** The store database of a run: `postgres://…` or a SQLite file. */
export const openDbAt = (url: string) =>
	/^postgres/.test(url) ? openStoreDb({ databaseUrl: url }) : openStoreDb({ sqlitePath: url });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A storefront bot in its own OS process: its Telegram webhook and its payment webhook server. */
export class BotProc {
	private constructor(
		private readonly proc: ChildProcess,
		readonly botUrl: string,
		/** the payment webhook server (`<url>/webhooks/<provider>`) */
		readonly webhookUrl: string,
	) {}

	static async start(env: Record<string, string>): Promise<BotProc> {
		const file = path.join(__dirname, 'chaos-storefront-bot.ts');
		const proc = spawn(process.execPath, ['--import', 'tsx', file], {
			cwd: REPO,
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		const ready = await new Promise<{ bot: number; payments: number }>((resolve, reject) => {
			createInterface({ input: proc.stdout! }).once('line', (l) => {
				const m = JSON.parse(l) as { ready?: { bot: number; payments: number } };
				if (m.ready) resolve(m.ready);
				else reject(new Error(`bot instance said ${l}`));
			});
			proc.once('exit', (code) => reject(new Error(`bot instance exited (${code}) before it was ready`)));
		});
		return new BotProc(proc, `http://127.0.0.1:${ready.bot}/tg`, `http://127.0.0.1:${ready.payments}`);
	}

	/** One update, as Telegram delivers it to a webhook: the answer comes when the bot has handled it. */
	async post(update: unknown): Promise<number> {
		const res = await fetch(this.botUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': HOOK_SECRET },
			body: JSON.stringify(update),
		});
		await res.text();
		return res.status;
	}

	async stop(): Promise<void> {
		if (this.proc.exitCode !== null) return;
		const exited = new Promise((r) => this.proc.once('exit', r));
		this.proc.kill('SIGTERM');
		await exited;
	}
}

interface BotCustomer {
	user: FakeUser;
	id: string;
	provider: 'paystack' | 'monnify';
	accountNumber: string;
	phone: string;
}

interface BotLane extends FundContext {
	o: Required<Pick<StorefrontChaosOptions, 'seed' | 'customers' | 'orders' | 'faultRate'>>;
	tg: FakeTelegram;
	bots: BotProc[];
	stats: FundContext['stats'] & {
		taps: number;
		doubleTaps: number;
		refused: number;
		refusedBy: Record<string, number>;
	};
	/** flows that did not reach a Confirm or refusal (a step's answer missing): reported, not hidden */
	skipped: string[];
	log: (s: string) => void;
}

/** The load balancer: each update to a random instance (or the one given). */
async function send(c: BotLane, update: unknown, bot?: BotProc): Promise<void> {
	const b = bot ?? c.bots[int(c.rng, 0, c.bots.length - 1)];
	const status = await b.post(update);
	if (status !== 200) c.problems.push(`the bot answered an update with ${status}`);
}

export function botEnv(
	backend: 'postgres' | 'sqlite',
	infra: { dbUrl: string; dir: string; vendorUrl: string; token: string; payUrl: string; tg: FakeTelegram },
	k: number,
): Record<string, string> {
	return {
		TELEGRAM_BOT_TOKEN: BOT_TOKEN,
		TELEGRAM_API_ROOT: infra.tg.apiRoot,
		VTU_BASE_URL: infra.vendorUrl,
		VTU_API_TOKEN: infra.token,
		VTU_MAX_PROCESSING_SECONDS: '2',
		BOT_ADMIN_IDS: String(OWNER_ID),
		BOT_DB_PATH: path.join(infra.dir, 'bot.sqlite'),
		BOT_MODE: 'webhook',
		WEBHOOK_URL: 'https://shop.example/tg',
		WEBHOOK_SECRET: HOOK_SECRET,
		PORT: '0',
		BOT_HOST: '127.0.0.1',
		BOT_RATE_LIMIT: '10000',
		BOT_FOLLOW_INTERVAL_MS: '300',
		BOT_REFUND_WATCH_HOURS: '1',
		VTU_BOT_MODE: 'storefront',
		STORE_PAYMENT_PROVIDER: backend === 'postgres' ? 'paystack' : 'monnify',
		PAYSTACK_SECRET_KEY: SECRETS.paystackSecret,
		PAYSTACK_BASE_URL: `${infra.payUrl}/paystack`,
		MONNIFY_API_KEY: SECRETS.monnifyApiKey,
		MONNIFY_SECRET_KEY: SECRETS.monnifySecret,
		MONNIFY_BASE_URL: `${infra.payUrl}/monnify`,
		STORE_MARKUP_PERCENT: '5',
		STORE_LOW_FLOAT_NAIRA: '1000',
		...(backend === 'postgres' ? { DATABASE_URL: infra.dbUrl } : { STORE_DB_PATH: infra.dbUrl }),
		STORE_WEBHOOK_PORT: '0',
		CHAOS_VTU_TIMEOUT_MS: '600',
		CHAOS_LOG: path.join(infra.dir, `bot${k}.log`),
	};
}

/** /start on a random instance: the account number is read from the bot's answer. */
async function register(c: BotLane, k: number): Promise<BotCustomer> {
	const user: FakeUser = { id: 6_100_000 + k, first_name: `Customer${k}` };
	await send(c, c.tg.textUpdate(user, '/start'));
	const said = await c.tg.waitForText(user.id, /Your account: \d+/, 30_000);
	const provider = c.bots.length > 1 ? 'paystack' : 'monnify';
	return {
		user,
		id: String(user.id),
		provider,
		accountNumber: /Your account: (\d+)/.exec(said)![1],
		phone: `0803${String(k).padStart(7, '0')}`,
	};
}

/** The newest message id in this chat: what the bot sends after it belongs to the step being taken. */
function mark(c: BotLane, u: FakeUser): number {
	return c.tg.botMessages(u.id).reduce((m, x) => Math.max(m, x.message_id), 0);
}

/**
 * The buttons the flow shows now: on the newest bot message since `since` that has buttons (a "₦… landed"
 * notice may arrive in between, the payments race the orders).
 */
function flowButtons(c: BotLane, u: FakeUser, since: number): { messageId: number; text: string; data: string }[] {
	const all = c.tg.buttons(u.id).filter((b) => b.messageId > since);
	const newest = all.reduce((m, b) => Math.max(m, b.messageId), 0);
	return all.filter((b) => b.messageId === newest);
}

/** Taps one of the flow's buttons whose label matches, drawn from the seed. */
async function tapOne(c: BotLane, u: FakeUser, since: number, label: RegExp): Promise<void> {
	const shown = flowButtons(c, u, since);
	const options = shown.filter((b) => label.test(b.text));
	if (!options.length) throw new Error(`no button ${label} in ${JSON.stringify(shown.map((b) => b.text))}`);
	const b = options[int(c.rng, 0, options.length - 1)];
	await send(c, c.tg.callbackUpdate(u, b.messageId, b.data));
}

/** One purchase through the bot's flow, up to the Confirm tap (or the refusal before it). */
async function botOrder(c: BotLane, cu: BotCustomer, n: number): Promise<void> {
	const u = cu.user;
	const data = c.rng.float() < 0.5;
	const phone = n && c.rng.float() < 0.7 ? `0816${String(int(c.rng, 0, 9_999_999)).padStart(7, '0')}` : cu.phone;
	const since = mark(c, u);
	try {
		await send(c, c.tg.textUpdate(u, data ? '/data' : '/airtime'));
		// an empty wallet (the first order racing the first payment) is refused as the flow starts
		if (!flowButtons(c, u, since).some((b) => /^MTN$/.test(b.text))) return refused(c, u, since);
		await tapOne(c, u, since, /^MTN$/);
		if (data) await tapOne(c, u, since, /^\d+(\.\d+)?\s?(GB|MB)\b/);
		else await pickAirtimeAmount(c, u, since);
		const typed = mark(c, u);
		await send(c, c.tg.textUpdate(u, phone));
		const again = c.tg.botMessages(u.id).some((m) => m.message_id > typed && /^You bought this /.test(m.text ?? ''));
		if (again) await tapOne(c, u, typed, /buy again/i);
		const pay = flowButtons(c, u, typed).find((b) => b.data === 'pay:y');
		if (!pay) return refused(c, u, typed);
		await confirm(c, u, pay.messageId);
	} catch (e) {
		c.skipped.push(`${cu.id} order ${n}: ${e instanceof Error ? e.message.slice(0, 160) : String(e)}`);
		await send(c, c.tg.textUpdate(u, '/cancel')).catch(() => undefined);
	}
}

/**
 * An airtime amount: a quick-amount button, or, when the wallet pays less than the smallest of them (only
 * Cancel is shown, the question gives the range), the least amount typed: the range starts there.
 */
async function pickAirtimeAmount(c: BotLane, u: FakeUser, since: number): Promise<void> {
	const amount = /^₦\d[\d,]*$/;
	if (flowButtons(c, u, since).some((b) => amount.test(b.text))) return tapOne(c, u, since, amount);
	await send(c, c.tg.textUpdate(u, String(PRODUCT_TABLE.airtime.limits.minKobo.VTU / 100)));
}

/** Told before anything was held: the wallet is empty or short, or the shop cannot fill it. */
function refused(c: BotLane, u: FakeUser, since: number): void {
	const said = c.tg
		.botMessages(u.id)
		.filter((m) => m.message_id > since && !/landed in your wallet/.test(m.text ?? ''))
		.map((m) => m.text ?? '');
	const why = said.some((t) => /^Your wallet has /.test(t))
		? 'wallet_short'
		: said.some((t) => /^Your wallet is empty/.test(t))
			? 'wallet_empty'
			: 'other';
	if (why === 'other') c.log(`refused: ${JSON.stringify(said)}`);
	c.stats.refused++;
	c.stats.refusedBy[why] = (c.stats.refusedBy[why] ?? 0) + 1;
}

/** The Confirm tap; the first and a quarter of the rest are double taps, delivered to two instances at once. */
async function confirm(c: BotLane, u: FakeUser, messageId: number): Promise<void> {
	// the first tap of a two-instance run is always double, so the path is taken whatever the run's size
	const double = c.bots.length > 1 && (c.stats.doubleTaps === 0 || c.rng.float() < 0.25);
	c.stats.taps++;
	if (!double) return send(c, c.tg.callbackUpdate(u, messageId, 'pay:y'));
	c.stats.doubleTaps++;
	await Promise.all(c.bots.slice(0, 2).map((b) => send(c, c.tg.callbackUpdate(u, messageId, 'pay:y'), b)));
}

/** A customer's life: funded a few times (the first racing their first order), then buying. */
async function customerLife(c: BotLane, cu: BotCustomer): Promise<void> {
	const amounts = Array.from({ length: int(c.rng, 1, 3) }, () => int(c.rng, 800, 5000) * 100 + int(c.rng, 0, 99));
	const funding = (async () => {
		for (const a of amounts) await fund(c, cu, a);
		if (c.rng.float() < c.o.faultRate) await forge(c, cu);
	})();
	for (let n = 0; n < c.o.orders; n++) {
		await botOrder(c, cu, n);
		if (n === 0) await funding;
	}
}

/** Waits until the bots' followers finished every order: nothing held or unknown, every vendor failure refunded. */
async function settled(c: BotLane, dbUrl: string, admin: SandboxAdmin, boundMs: number): Promise<void> {
	const opened = await openDbAt(dbUrl);
	try {
		const until = Date.now() + boundMs;
		for (;;) {
			const orders = await opened.db.selectFrom('orders').select(['state', 'vendor_product', 'vendor_id']).execute();
			const failed = await admin.transactions({ username: 'shop', status: 'failed' });
			const refunded = new Set(
				orders.filter((o) => o.state === 'refunded').map((o) => `${o.vendor_product}#${String(o.vendor_id)}`),
			);
			const open = orders.filter((o) => o.state === 'held' || o.state === 'unknown').length;
			const unrefunded = failed.filter((t) => !refunded.has(`${t.product}#${t.id}`)).length;
			if (!open && !unrefunded) return;
			if (Date.now() > until) return c.log(`followers left ${open} open, ${unrefunded} failures unrefunded`);
			await sleep(300);
		}
	} finally {
		await opened.close();
	}
}

/** /balance at a random instance, once everything is settled: what the bot says is what the books hold. */
async function checkBalances(c: BotLane, books: Books, customers: BotCustomer[], problems: string[]): Promise<void> {
	for (const cu of customers) {
		await send(c, c.tg.textUpdate(cu.user, '/balance'));
		const said = /Your wallet: ₦([\d,]+)\.(\d\d)/.exec(c.tg.lastText(cu.user.id) ?? '');
		const kobo = said ? Number(said[1].replace(/,/g, '')) * 100 + Number(said[2]) : NaN;
		const w = await books.walletBalance(cu.id);
		if (kobo !== w.available) problems.push(`customer ${cu.id}: /balance said ${kobo} kobo, the books ${w.available}`);
	}
}

/**
 * What the customers were told: each credited payment announced to its customer exactly once, no internal
 * refusal shown, and /balance equal to the books.
 */
async function auditTold(c: BotLane, dbUrl: string, customers: BotCustomer[]): Promise<string[]> {
	const opened = await openDbAt(dbUrl);
	try {
		const problems: string[] = [];
		const paid = await opened.db
			.selectFrom('payments')
			.select('customer_id')
			.where('status', '=', 'credited')
			.execute();
		for (const cu of customers) {
			const credited = paid.filter((p) => p.customer_id === cu.id).length;
			const told = c.tg.textsTo(cu.user.id).filter((t) => /landed in your wallet/.test(t)).length;
			if (told !== credited) problems.push(`customer ${cu.id}: ${credited} payments credited, told ${told} times`);
			// a double tap on two instances: the second shows the first one's outcome, never an internal refusal
			if (c.tg.textsTo(cu.user.id).some((t) => /already used/.test(t)))
				problems.push(`customer ${cu.id} was told an order id was already used`);
			// every Confirm message ends as its order's outcome, whichever tap edited it last
			if (c.tg.botMessages(cu.user.id).some((m) => /^⏳ Buying/.test(m.text ?? '')))
				problems.push(`customer ${cu.id} was left with "Buying…" on a Confirm message`);
		}
		await checkBalances(c, new Books(opened.db), customers, problems);
		return problems;
	} finally {
		await opened.close();
	}
}

/** The lane over real bots: two instances on Postgres, then one on SQLite (or `backends`). */
export async function runBotStorefrontChaos(opts: StorefrontChaosOptions = {}): Promise<RunStats[]> {
	return perBackend(opts, runBots);
}

async function runBots(backend: 'postgres' | 'sqlite', opts: StorefrontChaosOptions): Promise<RunStats> {
	const o = laneSettings(opts);
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-chaos-bots-'));
	const sb = await startSandbox({ port: 0, dialect: 'family', seed: o.seed });
	const tg = await new FakeTelegram().start();
	const pay = new PaymentSandbox({ ...SECRETS, webhookUrls: { paystack: [], monnify: [] } });
	const bots: BotProc[] = [];
	let db: { url: string; stop(): Promise<void> } | undefined;
	try {
		db = await database(backend, dir);
		await pay.start();
		const c: BotLane = {
			rng: new Rng(o.seed * 7919 + (backend === 'postgres' ? 11 : 12)),
			o,
			tg,
			bots,
			insts: bots,
			pay,
			provider: backend === 'postgres' ? 'paystack' : 'monnify',
			held: [],
			stats: { forgeries: 0, payments: 0, taps: 0, doubleTaps: 0, refused: 0, refusedBy: {} },
			problems: [],
			skipped: [],
			log: opts.log ?? (() => undefined),
		};
		return await driveBots(backend, c, { sb, dir, dbUrl: db.url });
	} finally {
		for (const b of bots) await b.stop().catch(() => undefined);
		await pay.stop();
		await tg.close();
		await sb.close();
		await db?.stop();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

async function driveBots(
	backend: 'postgres' | 'sqlite',
	c: BotLane,
	infra: { sb: Awaited<ReturnType<typeof startSandbox>>; dir: string; dbUrl: string },
): Promise<RunStats> {
	const admin = new SandboxAdmin(infra.sb.baseUrl, infra.sb.adminKey);
	const { token } = await admin.createUser({ username: 'shop', balance: '5000000.00' });
	const envOf = (k: number) =>
		botEnv(backend, { ...infra, vendorUrl: infra.sb.baseUrl, token, payUrl: c.pay.url, tg: c.tg }, k);
	const n = backend === 'postgres' ? 2 : 1;
	// one at a time: the first creates the journal and the store's schema
	for (let k = 0; k < n; k++) c.bots.push(await BotProc.start(envOf(k)));
	const provider = n > 1 ? 'paystack' : 'monnify';
	for (const b of c.bots) c.pay.opts.webhookUrls[provider].push(`${b.webhookUrl}/webhooks/${provider}`);
	const customers: BotCustomer[] = [];
	for (let k = 0; k < c.o.customers; k++) customers.push(await register(c, k));
	await armVendor(admin, c.o.faultRate);
	await pool(customers, 6, (cu) => customerLife(c, cu));
	await admin.clearFaults();
	c.log(`${backend}: ${c.stats.taps} confirms tapped; delivering held webhooks, late refunds, follow-up`);
	const lateRefunds = await lateTraffic(c, admin);
	await retryUndelivered(c);
	await settled(c, infra.dbUrl, admin, 60_000);
	const audit = await auditRun({
		database: infra.dbUrl,
		pay: c.pay,
		admin,
		vendorUser: 'shop',
		customers: customers.map((x) => x.id),
	});
	const told = await auditTold(c, infra.dbUrl, customers);
	const orders = Object.values(audit.ordersByState).reduce((s, x) => s + x, 0);
	return {
		...sharedStats(c, await admin.faultLog(), lateRefunds),
		backend,
		instances: n,
		customers: customers.length,
		orders,
		twoPhonePairs: c.stats.doubleTaps,
		crashes: 0,
		lostAnswers: 0,
		skippedFlows: c.skipped,
		audit: { ...audit, problems: [...c.problems, ...told, ...audit.problems] },
	};
}
