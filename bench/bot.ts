/**
 * Bot benchmark: `npx tsx bench/bot.ts [--sizes 200,500] [--mode polling|sequential|webhook] [--vendor-ms 0]
 *   [--floor | --no-floor] [--bots till,store-sqlite,store-postgres] [--bot-node-flags="--max-semi-space-size=16"]`.
 *
 * `--bots`: which real bots run beside the floor, at each size: the till (bot/bot.ts as the merchant's staff
 * use it) and the storefront (VTU_BOT_MODE=storefront: customers with funded wallets; ledger on SQLite or on
 * Postgres, bench/bot-storefront.ts). The storefront's Confirm is its Pay button; its checks add the ledger's:
 * every buyer's order settled, exactly one debit (hold) of each buyer's wallet, settled once, none voided, and
 * store's audit() clean. The last line is the till's; the storefront's is the line before it.
 *
 * N simulated Telegram users buy data AT ONCE through the whole bot. Three processes, so the
 * figures describe the bot alone:
 *   - this process: the fake Bot API on loopback (what grammY's `client.apiRoot` points at) and
 *     the N users who read the bot's messages and tap its buttons (Telegram's side);
 *   - a bot child: createBot on a temp SQLite file (journal + conversation storage), the real
 *     client, exactly as bot/main.ts runs it; it reports when each update is handled (IPC) and its
 *     own CPU time;
 *   - a sandbox child (a real vendor is another machine).
 * Each user: /data → MTN → 1GB SME → phone → Confirm, one step after the other (a user answers
 * what the bot showed); the users run concurrently.
 *
 * Modes (how updates reach the bot):
 *   polling (default): the production path, bot/polling.ts (@grammyjs/runner + sequentialize).
 *     Each update is queued on the fake Bot API and fetched by the runner's getUpdates long poll.
 *   sequential: grammY's bot.start() (one update at a time), for comparison.
 *   webhook: bot.handleUpdate per update, as webhookCallback does (the update is handed to the bot
 *     child over IPC instead of an HTTP POST).
 * Latency of an update = from the moment it is queued (polling) or handed over (webhook) until the
 * bot child reports it handled (includes the getUpdates round trip and any queueing in the bot).
 * `--vendor-ms` adds that delay to every purchase (client.buy), like a vendor that takes seconds;
 * the baseline gets the same delay.
 *
 * Checks: every user got a "Delivered" message, the journal holds N successful orders, and the
 * sandbox ledger shows exactly N new debits. Prints updates/s, p50/p99 latency per update and for
 * the confirm step (which contains the purchase), the CPU time per update of the bot, of this
 * process and of the sandbox (robust to a loaded machine), how busy each one's event loop was (a
 * loop near 100% is a bottleneck by itself, whatever the cores) and a baseline of N direct
 * client.buy() calls at the same concurrency in the same run, with the ratio.
 *
 * FLOOR: the same run (same harness, fake Bot API, users and updates) is first made against
 * bench/floor-bot.ts, a bare grammY bot that sends the same Bot API calls and does the same
 * client.buy, and nothing else. Side by side with the real bot it says what this harness and
 * machine allow at all, and how much of the real bot's cost is its own layers. `--floor` runs the
 * floor only, `--no-floor` the real bot only; `--bot-node-flags` are node options for the bot
 * child (e.g. GC tuning). BENCH_CPU_PROF=DIR profiles each bot child over the measured window only
 * (windowProfiler); `npx tsx tools/cpuprofile-sum.ts DIR/*.cpuprofile` sums a profile by module and bucket.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Bot } from 'grammy';
import { sqlReport, traceSql, type SqlCounts } from './sql-trace';
import { t } from '../bot/i18n';
import { pattern } from '../test/bot/texts';
import { checkStore, freshStore, openStoreSide, stopStores, type StoreCheck, type StoreTarget } from './bot-storefront';

const { values } = parseArgs({
	options: {
		child: { type: 'string' },
		/** Buyers at once, per size (each size runs the floor and the real bot). */
		sizes: { type: 'string', default: '200,500' },
		mode: { type: 'string', default: 'polling' },
		'vendor-ms': { type: 'string', default: '0' },
		floor: { type: 'boolean', default: false },
		'no-floor': { type: 'boolean', default: false },
		'bot-node-flags': { type: 'string', default: '' },
		/** Which bots beside the floor: the till, the storefront with its ledger on SQLite, on Postgres. */
		bots: { type: 'string', default: 'till,store-sqlite,store-postgres' },
	},
});

type Mode = 'polling' | 'sequential' | 'webhook';
/**
 * The real bot (bot/bot.ts) as a till, or in storefront mode with its ledger on SQLite or on Postgres, or the
 * floor (bench/floor-bot.ts).
 */
type Kind = 'bot' | 'floor' | 'store-sqlite' | 'store-postgres';
const STORE_KINDS: Kind[] = ['store-sqlite', 'store-postgres'];
type SandboxInfo = { baseUrl: string; adminKey: string; token: string; username: string };
/** What the bench tells the bot child. */
type BotSetup = {
	kind: Kind;
	sb: SandboxInfo;
	apiRoot: string;
	dbPath: string;
	token: string;
	allowedIds: number[];
	mode: Mode;
	vendorMs: number;
	/** Storefront mode: the store database of this run (every allowed id gets a funded wallet). */
	store?: StoreTarget;
};
/** A process's CPU time and how busy its event loop (main thread) has been, so far. */
type Usage = { cpu: NodeJS.CpuUsage; elu: EventLoopUtilization; rss: number };
const usage = (): Usage => ({
	cpu: process.cpuUsage(),
	elu: performance.eventLoopUtilization(),
	rss: process.memoryUsage.rss(),
});
type ToBot = { setup: BotSetup } | { update: unknown } | { usage: true } | { stop: true };
type FromBot =
	| { ready: true }
	| { done: number; sql?: SqlCounts }
	| { usage: Usage }
	| { stopped: { errors: string[] } };

async function sandboxChild(): Promise<void> {
	const { startSandbox } = await import('../sandbox/server');
	const sb = await startSandbox({ port: 0 });
	process.stdout.write(
		JSON.stringify({ baseUrl: sb.baseUrl, adminKey: sb.adminKey, token: sb.demo.token, username: sb.demo.username }) +
			'\n',
	);
	// A line on stdin asks for this process's usage, as the bot child reports its own.
	const lines = createInterface({ input: process.stdin });
	lines.on('line', () => process.stdout.write(JSON.stringify(usage()) + '\n'));
	lines.on('close', () => sb.close().then(() => process.exit(0)));
}

function pct(sorted: number[], p: number): number {
	if (!sorted.length) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function stats(xs: number[]) {
	const s = [...xs].sort((a, b) => a - b);
	return { n: s.length, p50: pct(s, 50), p99: pct(s, 99), max: s[s.length - 1] };
}

const f = (ms: number) => `${ms.toFixed(1)} ms`;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The client, purchases delayed by --vendor-ms (a slow vendor); everything else untouched. */
async function benchClient(sb: SandboxInfo, vendorMs: number) {
	const { VtuClient } = await import('../client');
	const realClient = new VtuClient({ baseUrl: sb.baseUrl, token: sb.token });
	return Object.assign(Object.create(realClient) as typeof realClient, {
		buy: async (...a: Parameters<typeof realClient.buy>) => {
			if (vendorMs > 0) await sleep(vendorMs);
			return realClient.buy(...a);
		},
	});
}

/** `sql`: BENCH_SQL=1 traces the real bot's SQLite statements per update (sql-trace.ts). */
type BenchBot = { bot: Bot; close(): Promise<void>; sql?: ReturnType<typeof traceSql> };

/** The bot as bot/main.ts runs it: createBot on the temp SQLite file, the real client. */
async function realBot(
	setup: BotSetup,
	client: Awaited<ReturnType<typeof benchClient>>,
	errors: string[],
): Promise<BenchBot> {
	const { createBot } = await import('../bot/bot');
	const { openDatabase } = await import('../bot/db');
	const { createLogger } = await import('../bot/logger');
	const logger = createLogger({ level: 'warn', secrets: [setup.token, setup.sb.token], write: (l) => errors.push(l) });
	const db = openDatabase(setup.dbPath);
	const sql = process.env.BENCH_SQL ? traceSql(db) : undefined;
	const storefront = setup.store && (await openStoreSide(setup.store, client, setup.allowedIds, logger));
	const app = createBot(
		{
			telegramToken: setup.token,
			adminIds: [],
			allowedIds: setup.allowedIds,
			maxPurchaseKobo: 10_000_00,
			dailyLimitKobo: 100_000_00,
			rateLimit: 1000,
		},
		{ client, db, logger, storefront, botConfig: { client: { apiRoot: setup.apiRoot } } },
	);
	await app.init();
	await client.catalog.networks(); // warm the catalogue cache (not measured)
	return {
		bot: app.bot as unknown as Bot,
		sql,
		close: async () => {
			await app.close();
			app.db.close();
			await storefront?.close();
		},
	};
}

/** The floor: a bare grammY bot making the same Bot API calls and the same purchase (floor-bot.ts). */
async function floorBot(
	setup: BotSetup,
	client: Awaited<ReturnType<typeof benchClient>>,
	errors: string[],
): Promise<BenchBot> {
	const { createFloorBot } = await import('./floor-bot');
	const bot = await createFloorBot(setup.token, setup.apiRoot, client);
	bot.catch((e) => errors.push(String(e.error)));
	await bot.init();
	return { bot: bot as unknown as Bot, close: async () => undefined }; // its context carries the typing flavour
}

/**
 * BENCH_CPU_PROF=DIR: a CPU profile of the bot child over the measured window only (between the bench's two
 * usage reads; no start-up, no warm-up), written to DIR/<kind>-<pid>.cpuprofile. Sum it with
 * tools/cpuprofile-sum.ts. With BENCH_HEAP_PROF=1 too: a sampling profile of what the child allocated in the
 * same window (collected objects included), DIR/<kind>-<pid>.heapprofile (Chrome DevTools, Memory tab).
 */
function windowProfiler(dir: string, kind: Kind) {
	const session = new Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<unknown>((resolve, reject) =>
			session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
		);
	const heap = !!process.env.BENCH_HEAP_PROF;
	let on = false;
	return {
		async toggle() {
			on = !on;
			if (on) {
				await post('Profiler.enable');
				// every allocation sampled, those the GC collected too (the default keeps only what is still live)
				if (heap)
					await post('HeapProfiler.startSampling', {
						includeObjectsCollectedByMajorGC: true,
						includeObjectsCollectedByMinorGC: true,
					});
				return void (await post('Profiler.start'));
			}
			mkdirSync(dir, { recursive: true });
			if (heap) {
				const { profile: allocations } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
				writeFileSync(join(dir, `${kind}-${process.pid}.heapprofile`), JSON.stringify(allocations));
			}
			const { profile } = (await post('Profiler.stop')) as { profile: unknown };
			writeFileSync(join(dir, `${kind}-${process.pid}.cpuprofile`), JSON.stringify(profile));
		},
	};
}

/** The bot child: the real bot or the floor, reporting each handled update to the bench. */
async function botChild(): Promise<void> {
	const send = (m: FromBot) => process.send!(m);
	const setup = await new Promise<BotSetup>((resolve) =>
		process.once('message', (m: ToBot) => 'setup' in m && resolve(m.setup)),
	);
	const { startPolling } = await import('../bot/polling');
	const errors: string[] = [];
	const client = await benchClient(setup.sb, setup.vendorMs);
	const { bot, close, sql } = await (setup.kind === 'floor' ? floorBot : realBot)(setup, client, errors);

	const handleUpdate = bot.handleUpdate.bind(bot);
	bot.handleUpdate = async (update, webhookReplyEnvelope) => {
		const traced = sql?.run(() => handleUpdate(update, webhookReplyEnvelope));
		try {
			return await (traced?.done ?? handleUpdate(update, webhookReplyEnvelope));
		} finally {
			send({ done: update.update_id, sql: traced?.counts });
		}
	};
	const profile = process.env.BENCH_CPU_PROF ? windowProfiler(process.env.BENCH_CPU_PROF, setup.kind) : undefined;
	let stopPolling: () => Promise<void> = async () => undefined;
	if (setup.mode === 'polling') {
		const poller = await startPolling(bot as unknown as Parameters<typeof startPolling>[0], { timeoutSeconds: 30 });
		stopPolling = () => poller.stop();
	} else if (setup.mode === 'sequential') {
		await new Promise<void>((resolve) => void bot.start({ timeout: 30, onStart: () => resolve() }));
		stopPolling = () => bot.stop();
	}
	process.on('message', (m: ToBot) => {
		if ('update' in m) void bot.handleUpdate(m.update as never).catch((e) => errors.push(String(e)));
		else if ('usage' in m) {
			send({ usage: usage() });
			void profile?.toggle();
		} else if ('stop' in m) {
			void (async () => {
				await stopPolling();
				await close();
				send({ stopped: { errors } });
				process.disconnect();
			})();
		}
	});
	send({ ready: true });
}

type User = { id: number; first_name: string };
type Shared = Awaited<ReturnType<typeof setup>>;
type Run = {
	tg: InstanceType<typeof import('../test/bot/fake-telegram').FakeTelegram>;
	bot: Awaited<ReturnType<typeof startBotChild>>;
	mode: Mode;
	kind: Kind;
};

/** The sandbox child: its connection details, and its CPU time on request. */
async function startSandboxChild() {
	const proc = spawn(process.execPath, [...process.execArgv, __filename, '--child', 'sandbox'], {
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	const waiting: ((line: string) => void)[] = [];
	createInterface({ input: proc.stdout! }).on('line', (l) => waiting.shift()?.(l));
	const nextLine = () => new Promise<string>((resolve) => waiting.push(resolve));
	const first = await Promise.race([
		nextLine(),
		new Promise<never>((_, reject) => proc.once('exit', (c) => reject(new Error(`sandbox child exited ${c}`)))),
	]);
	const usageOf = async () => {
		const line = nextLine();
		proc.stdin!.write('usage\n');
		return JSON.parse(await line) as Usage;
	};
	return { proc, info: JSON.parse(first) as SandboxInfo, usage: usageOf };
}

/** The bot child over IPC: hand it updates, hear when each is handled, read its CPU time. */
async function startBotChild(setup: BotSetup, nodeFlags: string[]) {
	const proc: ChildProcess = fork(__filename, ['--child', 'bot'], {
		execArgv: [...process.execArgv, ...nodeFlags],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const finished = new Map<number, (sql?: SqlCounts) => void>();
	let reply: ((m: FromBot) => void) | undefined;
	proc.on('message', (m: FromBot) => {
		if ('done' in m) {
			finished.get(m.done)?.(m.sql);
			finished.delete(m.done);
		} else reply?.(m);
	});
	const ask = (m: ToBot) =>
		new Promise<FromBot>((resolve, reject) => {
			reply = resolve;
			proc.once('exit', (c) => reject(new Error(`bot child exited ${c}`)));
			proc.send(m);
		});
	const ready = await ask({ setup });
	if (!('ready' in ready)) throw new Error('bot child did not start');
	let stopped: Promise<{ errors: string[] }> | undefined;
	return {
		finished,
		handOver: (update: unknown) => proc.send({ update } satisfies ToBot),
		usage: async () => ((await ask({ usage: true })) as { usage: Usage }).usage,
		/** Idempotent: the child disconnects once stopped. */
		stop: () => (stopped ??= ask({ stop: true }).then((m) => (m as { stopped: { errors: string[] } }).stopped)),
	};
}

/** N buyers; each size its own ids (so its phone numbers, phoneOf(id), are no other size's repeats). */
const usersOf = (N: number, size: number): User[] =>
	Array.from({ length: N }, (_, i) => ({ id: 900_001 + size * 100_000 + i, first_name: `U${i}` }));

/** What every run shares: the sandbox child (funded), the N users, a client for the baseline. */
async function setup(N: number, vendorMs: number) {
	const sandbox = await startSandboxChild();
	const { SandboxAdmin } = await import('../sandbox/admin-client');
	const admin = new SandboxAdmin(sandbox.info.baseUrl, sandbox.info.adminKey);
	await admin.fund(sandbox.info.username, 10_000_000);
	const users: User[] = usersOf(N, 0);
	const client = await benchClient(sandbox.info, vendorMs);
	return { admin, sandbox, sbInfo: sandbox.info, client, users, close: () => void sandbox.proc.stdin!.end() };
}

/** One user's purchase, update by update (a user answers what the bot showed); latencies into `all` / `confirm`. */
function flows(b: Run) {
	const lat = { all: [] as number[], confirm: [] as number[] };
	/** BENCH_SQL=1: SQLite statements of each update, per step of the flow. */
	const sql = new Map<string, SqlCounts[]>();
	const handle = async (step: string, make: () => unknown, isConfirm = false) => {
		const upd = make() as { update_id: number };
		const done = new Promise<SqlCounts | undefined>((r) => b.bot.finished.set(upd.update_id, r));
		const t0 = performance.now();
		if (b.mode === 'webhook') b.bot.handOver(upd);
		else b.tg.enqueue(upd);
		const counts = await done;
		if (counts) sql.set(step, [...(sql.get(step) ?? []), counts]);
		const ms = performance.now() - t0;
		lat.all.push(ms);
		if (isConfirm) lat.confirm.push(ms);
	};
	const flow = async (u: User, phone: string) => {
		await handle('/data', () => b.tg.textUpdate(u, '/data'));
		await handle('MTN', () => b.tg.buttonUpdate(u, 'MTN'));
		await handle('plan', () => b.tg.buttonUpdate(u, /^1GB SME /));
		await handle('phone', () => b.tg.textUpdate(u, phone));
		const confirm = STORE_KINDS.includes(b.kind) ? /^pay:y$/ : /^confirm:/; // the storefront's Pay button
		await handle('Confirm', () => b.tg.buttonUpdate(u, confirm), true);
	};
	return { lat, sql, flow };
}

/**
 * Sandbox debits so far. A GET, so it is asked again once when the pooled socket was closed under
 * it: after a minute of load the admin's idle keep-alive socket can be closed by the sandbox just
 * as it is reused ("other side closed", seen on a loaded machine).
 */
async function debits(b: Shared): Promise<number> {
	const read = async () => (await b.admin.ledger(b.sbInfo.username)).filter((e) => e.kind === 'debit').length;
	try {
		return await read();
	} catch {
		return read();
	}
}

const phoneOf = (prefix: string, n: number) => `${prefix}${String(1_000_000 + (n % 1_000_000)).slice(-7)}`;

/** The same N purchases straight through the client, same concurrency, same run. */
async function baseline(b: Shared) {
	const base: number[] = [];
	const t0 = performance.now();
	await Promise.all(
		b.users.map(async (u) => {
			const t = performance.now();
			await b.client.buy({ product: 'data', network: 1, plan: 2, phone: phoneOf('0806', u.id) });
			base.push(performance.now() - t);
		}),
	);
	return { stats: stats(base), wall: performance.now() - t0 };
}

/** Bot API calls per method, most first: "sendMessage 3000, …". */
function callMix(calls: { method: string }[]): string {
	const n = new Map<string, number>();
	for (const c of calls) n.set(c.method, (n.get(c.method) ?? 0) + 1);
	return [...n]
		.sort((a, b) => b[1] - a[1])
		.map(([m, k]) => `${m} ${k}`)
		.join(', ');
}

const cpuMs = (a: Usage, b: Usage) => (b.cpu.user - a.cpu.user + b.cpu.system - a.cpu.system) / 1000;
/** Share of the time the event loop was busy: near 1, that process alone is the bottleneck (one thread). */
const loopBusy = (a: Usage, b: Usage) => performance.eventLoopUtilization(b.elu, a.elu).utilization;

/** MTN numbers per run, so no run's purchases look like another's repeats. */
const PHONES: Record<Kind, { warm: string; run: string }> = {
	bot: { warm: '0703', run: '0803' },
	floor: { warm: '0706', run: '0813' },
	'store-sqlite': { warm: '0810', run: '0814' },
	'store-postgres': { warm: '0903', run: '0906' },
};

/** The message that ends a successful purchase: the till's outcome head, the storefront's receipt. */
const DELIVERED: Record<Kind, RegExp> = {
	bot: new RegExp(`^✅ ${t('state-successful')}:`),
	floor: new RegExp(`^✅ ${t('state-successful')}:`),
	'store-sqlite': pattern('sf-receipt', { gets: /.+/, price: /₦[\d,]+\.\d\d/, ref: /\S+/, balance: /₦[\d,.]+/ }),
	'store-postgres': pattern('sf-receipt', { gets: /.+/, price: /₦[\d,]+\.\d\d/, ref: /\S+/, balance: /₦[\d,.]+/ }),
};

/**
 * One bot (real or floor) on its own fake Bot API: 20 purchases by one user (unloaded reference,
 * warms everything up), then the N users at once, measured; then the checks.
 */
async function measure(sh: Shared, kind: Kind, mode: Mode, vendorMs: number, nodeFlags: string[]) {
	const N = sh.users.length;
	const { FakeTelegram } = await import('../test/bot/fake-telegram');
	const tg = await new FakeTelegram().start();
	const dir = mkdtempSync(join(tmpdir(), 'vtu-bot-bench-'));
	const dbPath = join(dir, 'bench.sqlite');
	const token = '7000001:AAH-bench_token_value_0123456789abcdef';
	const solo = { id: 900_000, first_name: 'Solo' };
	const allowedIds = [solo.id, ...sh.users.map((u) => u.id)];
	const store = STORE_KINDS.includes(kind)
		? await freshStore(kind === 'store-sqlite' ? 'sqlite' : 'postgres', dir)
		: undefined;
	const bot = await startBotChild(
		{ kind, sb: sh.sbInfo, apiRoot: tg.apiRoot, dbPath, token, allowedIds, mode, vendorMs, store },
		nodeFlags,
	);
	const run: Run = { tg, bot, mode, kind };
	try {
		const warm = flows(run);
		// a new number each time (no repeat prompt)
		for (let i = 0; i < 20; i++) await warm.flow(solo, phoneOf(PHONES[kind].warm, i));

		const debitsBefore = await debits(sh);
		const callsBefore = tg.calls.length;
		const measured = flows(run);
		const [bot0, sb0, me0] = [await bot.usage(), await sh.sandbox.usage(), usage()];
		const t0 = performance.now();
		await Promise.all(sh.users.map((u) => measured.flow(u, phoneOf(PHONES[kind].run, u.id))));
		const wall = performance.now() - t0;
		const me1 = usage();
		const [bot1, sb1] = [await bot.usage(), await sh.sandbox.usage()];
		const calls = tg.calls.slice(callsBefore);

		const ok = sh.users.filter((u) => DELIVERED[kind].test(tg.lastText(u.id) ?? '')).length;
		const debitsRun = (await debits(sh)) - debitsBefore;
		const { errors } = await bot.stop();
		let successful: number | undefined; // the journal's count; the floor keeps none
		const ledger =
			store &&
			(await checkStore(
				store,
				sh.users.map((u) => u.id),
			));
		if (ledger) successful = ledger.settled;
		else if (kind === 'bot') {
			const { default: Database } = await import('better-sqlite3');
			const db = new Database(dbPath, { readonly: true });
			successful = (
				db.prepare(`SELECT COUNT(*) AS n FROM orders WHERE state = 'successful' AND user_id <> ?`).get(solo.id) as {
					n: number;
				}
			).n;
			db.close();
		}
		const updates = N * 5;
		const per = (ms: number) => ms / updates;
		return {
			kind,
			N,
			updates,
			ok,
			successful,
			debits: debitsRun,
			pass: ok === N && debitsRun === N && (successful === undefined || successful === N) && ledgerOk(ledger, N),
			ledger,
			wall,
			rate: updates / (wall / 1000),
			all: stats(measured.lat.all),
			confirm: stats(measured.lat.confirm),
			idle: { all: stats(warm.lat.all), confirm: stats(warm.lat.confirm) },
			cpu: { bot: per(cpuMs(bot0, bot1)), driver: per(cpuMs(me0, me1)), sandbox: per(cpuMs(sb0, sb1)) },
			loop: { bot: loopBusy(bot0, bot1), driver: loopBusy(me0, me1), sandbox: loopBusy(sb0, sb1) },
			rss: { bot: bot1.rss, sandbox: sb1.rss },
			calls: { perUpdate: calls.length / updates, mix: callMix(calls) },
			sql: measured.sql,
			errors,
		};
	} finally {
		await bot.stop();
		await tg.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

type Result = Awaited<ReturnType<typeof measure>>;

/** Storefront: every buyer's wallet debited exactly once (one hold, settled once, never voided), audit clean. */
const ledgerOk = (l: StoreCheck | undefined, N: number) =>
	!l || (l.settled === N && l.oneHoldEach && l.settles === N && l.voids === 0 && l.problems.length === 0);

const TITLE: Record<Kind, string> = {
	bot: 'REAL BOT, TILL (bot/bot.ts)',
	floor: 'FLOOR (bench/floor-bot.ts: bare grammY, same Bot API calls and purchase, nothing else)',
	'store-sqlite': "REAL BOT, STOREFRONT (VTU_BOT_MODE=storefront; customers' wallets; ledger on SQLite)",
	'store-postgres': "REAL BOT, STOREFRONT (VTU_BOT_MODE=storefront; customers' wallets; ledger on Postgres)",
};
/** Column names of the side-by-side table. */
const SHORT: Record<Kind, string> = {
	floor: 'floor',
	bot: 'till',
	'store-sqlite': 'sf/SQLite',
	'store-postgres': 'sf/Postgres',
};

function printRun(r: Result): void {
	const l = r.ledger;
	const journal = l
		? `store orders settled=${l.settled}; ledger: one debit (hold) per buyer ${l.oneHoldEach ? 'yes' : 'NO'}, ` +
			`settled ${l.settles}, voided ${l.voids}, audit problems ${l.problems.length}`
		: r.successful === undefined
			? 'no journal'
			: `journal successful=${r.successful}`;
	console.log(`  ${TITLE[r.kind]}`);
	console.log(
		`  completed:        ${r.ok}/${r.N} users told "Delivered"; ${journal}; sandbox debits=${r.debits} (expected ${r.N})`,
	);
	console.log(
		`  wall time:        ${f(r.wall)}  (${r.rate.toFixed(0)} updates/s, ${(r.N / (r.wall / 1000)).toFixed(0)} ` +
			`purchases/s)`,
	);
	console.log(`  per update:       p50 ${f(r.all.p50)}  p99 ${f(r.all.p99)}  max ${f(r.all.max)}  (n=${r.all.n})`);
	console.log(`  confirm (buy):    p50 ${f(r.confirm.p50)}  p99 ${f(r.confirm.p99)}  max ${f(r.confirm.max)}`);
	console.log(
		`  CPU, bot process: ${f(r.cpu.bot * r.updates)} = ${r.cpu.bot.toFixed(2)} ms per update (the bot alone: fake Bot ` +
			`API, users and sandbox are other processes)`,
	);
	console.log(
		`  CPU, fake Bot API + users (this process): ${r.cpu.driver.toFixed(2)} ms per update; sandbox process: ` +
			`${r.cpu.sandbox.toFixed(2)} ms per update`,
	);
	console.log(`  Bot API calls:    ${r.calls.perUpdate.toFixed(2)} per update (${r.calls.mix})`);
	console.log(
		`  unloaded reference (1 user, 20 purchases in a row): per update p50 ${f(r.idle.all.p50)} p99 ` +
			`${f(r.idle.all.p99)}; confirm p50 ${f(r.idle.confirm.p50)}`,
	);
	if (r.sql.size) console.log(`  SQLite per update, by step (BENCH_SQL):\n${sqlReport(r.sql)}`);
	console.log(`  warnings/errors logged by the bot: ${r.errors.length}`);
	if (r.errors.length) console.log(r.errors.slice(0, 5).join('\n'));
}

/**
 * Floor and real bot side by side, and what 2 cores allow at the measured CPU costs: all three
 * processes share them, so no run can beat 2000 ms / (bot + driver + sandbox CPU ms per update).
 */
function printSideBySide(results: Result[]): void {
	const total = (r: Result) => r.cpu.bot + r.cpu.driver + r.cpu.sandbox;
	const rows: [string, (r: Result) => string, ((fl: Result, bot: Result) => string)?][] = [
		['updates/s', (r) => r.rate.toFixed(0), (fl, b) => `${(b.rate / fl.rate).toFixed(2)}x`],
		[
			'per update p50 / p99, ms',
			(r) => `${r.all.p50.toFixed(0)} / ${r.all.p99.toFixed(0)}`,
			(fl, b) => `${(b.all.p99 / fl.all.p99).toFixed(2)}x (p99)`,
		],
		['confirm p50 / p99, ms', (r) => `${r.confirm.p50.toFixed(0)} / ${r.confirm.p99.toFixed(0)}`],
		['CPU ms/update, bot child', (r) => r.cpu.bot.toFixed(2), (fl, b) => `${(b.cpu.bot / fl.cpu.bot).toFixed(2)}x`],
		[
			'CPU ms/update, driver (fake Bot API + users)',
			(r) => r.cpu.driver.toFixed(2),
			(fl, b) => `${(b.cpu.driver / fl.cpu.driver).toFixed(2)}x`,
		],
		[
			'CPU ms/update, sandbox',
			(r) => r.cpu.sandbox.toFixed(2),
			(fl, b) => `${(b.cpu.sandbox / fl.cpu.sandbox).toFixed(2)}x`,
		],
		['CPU ms/update, all three', (r) => total(r).toFixed(2), (fl, b) => `${(total(b) / total(fl)).toFixed(2)}x`],
		['cores busy during the run (CPU / wall)', (r) => `${((total(r) * r.updates) / r.wall).toFixed(2)} of 2`],
		[
			'event loop busy: bot / driver / sandbox, %',
			(r) => [r.loop.bot, r.loop.driver, r.loop.sandbox].map((x) => (100 * x).toFixed(0)).join(' / '),
		],
		['2-core budget: 2000 / all three, updates/s', (r) => (2000 / total(r)).toFixed(0)],
		['Bot API calls per update', (r) => r.calls.perUpdate.toFixed(2)],
		['RSS after the run: bot child / sandbox, MB', (r) => `${mb(r.rss.bot)} / ${mb(r.rss.sandbox)}`],
	];
	const fl = results.find((r) => r.kind === 'floor');
	const real = fl ? results.filter((r) => r !== fl) : [];
	const line = (label: string, cells: string[]) =>
		console.log(`  ${label.padEnd(46)}${cells.map((c) => c.padStart(15)).join('')}`);
	console.log('  side by side (same harness, same run):');
	line('', [...results.map((r) => SHORT[r.kind]), ...real.map((r) => `${SHORT[r.kind]}/fl`)]);
	for (const [label, cell, ratio] of rows)
		line(label, [...results.map(cell), ...real.map((b) => (ratio && fl ? ratio(fl, b) : ''))]);
}

/** Floor and real bot at one size (printed), each measured in the same run. */
async function atSize(
	sh: Shared,
	N: number,
	size: number,
	kinds: Kind[],
	how: string,
	flags: string,
	vendorMs: number,
) {
	const mode = values.mode as Mode;
	const nodeFlags = values['bot-node-flags'].split(/\s+/).filter(Boolean);
	sh.users = usersOf(N, size);
	const results: Result[] = [];
	for (const kind of kinds) results.push(await measure(sh, kind, mode, vendorMs, nodeFlags));
	console.log(
		`\nbot bench: ${N} users buying data at once (5 updates each, ${how}; vendor delay ${vendorMs} ms per ` +
			`purchase${flags})`,
	);
	for (const r of results) printRun(r);
	printSideBySide(results);
	return results;
}

async function main(): Promise<void> {
	const sizes = values.sizes.split(',').map(Number);
	const mode = values.mode as Mode;
	if (!['polling', 'sequential', 'webhook'].includes(mode))
		throw new Error('--mode must be polling, sequential or webhook');
	if (values.floor && values['no-floor'])
		throw new Error('--floor runs the floor only, --no-floor the real bot only: pick one');
	const vendorMs = Number(values['vendor-ms']);
	const bots = values.bots.split(',').map((b) => (b.trim() === 'till' ? 'bot' : b.trim()) as Kind);
	if (!bots.every((b) => ['bot', ...STORE_KINDS].includes(b)))
		throw new Error('--bots is a list of till, store-sqlite, store-postgres');
	const kinds: Kind[] = values.floor ? ['floor'] : values['no-floor'] ? bots : ['floor', ...bots];
	const how = {
		polling: 'long polling via @grammyjs/runner (bot/polling.ts)',
		sequential: "long polling via grammY's sequential bot.start()",
		webhook: 'webhook-style bot.handleUpdate',
	}[mode];
	const flags = values['bot-node-flags'] ? `; bot child node flags: ${values['bot-node-flags']}` : '';
	const sh = await setup(sizes[0], vendorMs);
	const all: Result[][] = [];
	for (let i = 0; i < sizes.length; i++) all.push(await atSize(sh, sizes[i], i, kinds, how, flags, vendorMs));
	const results = all[all.length - 1];
	const N = sizes[sizes.length - 1];
	const base = await baseline(sh);
	sh.close();
	await stopStores();
	console.log(
		`  baseline client.buy x${N} concurrent: wall ${f(base.wall)}  p50 ${f(base.stats.p50)}  p99 ${f(base.stats.p99)}`,
	);
	for (const r of results) {
		console.log(
			`  ratio ${SHORT[r.kind]} confirm / direct buy:`.padEnd(40) +
				`p50 ${(r.confirm.p50 / base.stats.p50).toFixed(2)}x  p99 ${(r.confirm.p99 / base.stats.p99).toFixed(2)}x; wall ` +
				`${(r.wall / base.wall).toFixed(2)}x for 5x the updates`,
		);
	}
	console.log('\n  by size (growth: CPU per update should stay flat)');
	for (const rs of all)
		for (const r of rs)
			console.log(
				`  ${String(r.N).padStart(5)} users ${SHORT[r.kind].padEnd(11)} ${r.rate.toFixed(0).padStart(5)} updates/s  ` +
					`p99 ${r.all.p99.toFixed(0).padStart(5)} ms  bot CPU ${r.cpu.bot.toFixed(2)} ms/update  RSS ${mb(r.rss.bot)} MB`,
			);
	const pass = all.every((rs) => rs.every((r) => r.pass));
	console.log(pass ? 'PASS' : 'FAIL');
	const fl = results.find((r) => r.kind === 'floor');
	const vsFloor = (r: Result) =>
		`${r.rate.toFixed(0)} updates/s = ${fl ? (r.rate / fl.rate).toFixed(2) : '?'}× the floor, ` +
		`p99 ${r.all.p99.toFixed(0)} ms`;
	const stores = results.filter((r) => STORE_KINDS.includes(r.kind));
	if (stores.length)
		console.log(`storefront: ${stores.map((r) => `ledger on ${SHORT[r.kind].slice(3)} ${vsFloor(r)}`).join('; ')}`);
	const bot = results.find((r) => r.kind === 'bot');
	if (bot) console.log(`bot: ${vsFloor(bot)}`);
	process.exit(pass ? 0 : 1);
}

if (values.child === 'sandbox') void sandboxChild();
else if (values.child === 'bot') void botChild();
else
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
