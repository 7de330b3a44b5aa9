/**
 * Multi-actor chaos lane (issue 9: one owner per record):
 *
 *   npm run chaos -- --actors 3 --fault-rate 0.8 --seed 4 [--purchases 40] [--bot-orders 10] [--timeout-ms 2000]
 *                    [--bot-instances 2 [--bot-token-shared true] [--bot-customer-ref true]]
 *                    [--busy 20] [--slow 0.2 [--slow-range 4-12 | --slow-real]] [--max-processing-ms 15000]
 *
 * --busy <records/s>: the account is busy: other buyers (the sandbox's server-side generator, sandbox/busy.ts)
 * create that many records per second on it for the whole run, some identical to the actors' orders, so the
 * lists scroll under every read-back (family sites ignore ?search=, this lane reads pages like them).
 * --slow <share>: that share of the actors' purchases meets a slow vendor: the POST answers, and the record
 * and debit appear, only after a time drawn from the range (4–12 s by default so a run takes minutes;
 * --slow-real: 40–120 s). The clients' reconcile.maxProcessingMs is the range's maximum + 8 s unless given.
 * Unknown outcomes are then resolved as a user would: client.reconcile(request, { sentAt, customerRef, waitMs: 0 })
 * once the error's resolvableAfter has passed, again while it stays unknown, up to maxProcessingMs more.
 *
 * One sandbox account, shared by
 *   - `actors` child processes (no shared memory), each running two VtuClients side by side (two n8n
 *     executions), configured as the docs prescribe for a shared account (`reconcile.sharedAccount`);
 *     even-numbered actors also send `customer_ref` (the sandbox echoes it behind its switch), odd ones do not;
 *   - the project's bot (createBot over the fake Bot API, its SQLite journal on disk) in a child process
 *     that is killed (SIGKILL) once between confirm and the POST and once after the POST left, and
 *     restarted on the same journal (its start-up recovery reconciles the interrupted orders);
 *   - or, with --bot-instances N, the bot's multi-instance deployment as bot/README "Running several
 *     instances" documents it: N such processes (each killed and restarted the same way), one bot token,
 *     one SQLite journal, each its own client; VTU_TOKEN_SHARED=true, as that section prescribes when
 *     buyers outside the journal use the token (the actors and the busy buyers do), unless
 *     --bot-token-shared false (the bot's default, documented for instances that are the token's only
 *     buyers: here a restart that finds an order left in `sent` before its POST can adopt an outside
 *     buyer's lone identical record, seen as a false success with --fault-rate 0.8 --seed 3), and
 *     VTU_CUSTOMER_REF on (the sandbox echoes it) unless --bot-customer-ref false. Their orders are
 *     identical across instances and to the actors'; all are audited together: a record carries one
 *     order's tag, so a record named by two orders (of any instances) is a false success.
 * Everyone buys from a handful of IDENTICAL orders (same phone + plan, same airtime, same exam, same
 * recharge denomination), so identical purchases overlap across processes all the time.
 *
 * Faults are per request (header X-Sandbox-Fault, so an actor never catches another's): timeout / reset /
 * HTML 500 after the debit, HTML 500 before it (half with retryIfNotCharged), 429, connection refused
 * before sending, and a lost POST whose first reconcile read fails. Only faults whose outcome does not
 * depend on timing are used (no latency races), so a loaded machine changes nothing but the duration.
 *
 * Every POST carries X-Sandbox-Tag = its order's id; the audit reads ONLY the sandbox (admin records with
 * their tags, ledger) against what each order reported (actors' outputs, the bot's journal):
 *   double charge:  more than one debited record for one order.
 *   false success:  an order reported a result (successful, processing or failed) naming a record that is
 *                   not its own (another order's, or none).
 *   false not-charged: the order's answer (first, or its resolution) was not_charged while a debited
 *                   record of it exists on the sandbox.
 *   lost:           a record of the order exists but the order reported another error, or unknown_outcome
 *                   whose candidates miss it; or a record no order (and no busy buyer) explains.
 * unknown_outcome whose candidates include the real record (or with no record at all) is the honest answer
 * where identical orders of different processes cannot be told apart; it is counted, not failed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import {
	TransportError,
	VtuClient,
	VtuError,
	createNodeTransport,
	type PurchaseRequest,
	type PurchaseResult,
	type Transport,
	type VtuClientOptions,
} from '../client';
import { SandboxAdmin, type AdminTxn } from '../sandbox/admin-client';
import { BUSY_TAG } from '../sandbox/busy';
import { Rng } from '../sandbox/rng';
import { startSandbox } from '../sandbox/server';

export const ACTOR_FAULTS = [
	'timeout_after',
	'reset_after',
	'html_after',
	'error_before',
	'rate_limit',
	'refused',
	'reconcile_read_error',
] as const;
export type ActorFault = (typeof ACTOR_FAULTS)[number];

export interface ActorsOptions {
	actors?: number;
	/** Purchases per actor. Default 40. */
	purchases?: number;
	/** Orders the bot places (each instance, with `botInstances`). Default 10. */
	botOrders?: number;
	/**
	 * Bot instances (bot/README "Running several instances"): child processes with one bot token, one shared
	 * SQLite journal, each its own client (no shared memory), buying identical orders beside each other and
	 * the actors; each is killed and restarted like the single bot. Default 1 (the single bot, configured
	 * for a shared token).
	 */
	botInstances?: number;
	/**
	 * With botInstances > 1: the instances' VTU_TOKEN_SHARED (default true: the actors and the busy buyers
	 * use the token too, so bot/README prescribes it) and VTU_CUSTOMER_REF (default true: the sandbox echoes
	 * customer_ref, and the journal passes it back).
	 */
	botTokenShared?: boolean;
	botCustomerRef?: boolean;
	seed?: number;
	faultRate?: number;
	/** Client per-request timeout. Default 2000 ms (the lane's outcomes do not race it). */
	timeoutMs?: number;
	/** The sandbox's dialect: 'family' ignores ?search= like the real sites, so reads page back. Default 'seed'. */
	dialect?: 'seed' | 'family';
	/** Busy account: records per second other buyers create on the same account (sandbox/busy.ts). Default 0. */
	busy?: number;
	/** Slow vendor: share of the actors' purchases the vendor finishes only after [minMs, maxMs]. Default share 0. */
	slow?: { share: number; minMs: number; maxMs: number };
	/**
	 * The clients' `reconcile.maxProcessingMs` (the vendor's processing bound, from the client's send to the
	 * record). Default: the slow range's maximum + 8 s (20 s for the default 4–12 s range), so a run takes
	 * minutes, not the real 40–120 s. The margin covers the time a POST takes to reach the vendor on a loaded
	 * 2-core machine: a bound shorter than send-to-record is a wrong promise, and the client's not_charged
	 * proof rests on it.
	 */
	maxProcessingMs?: number;
	log?: (line: string) => void;
}

export interface ActorsReport {
	purchases: number;
	faults: number;
	doubleCharges: number;
	lost: number;
	falseSuccesses: number;
	/** not_charged answers (first or after resolution) for an order whose debited record exists. */
	falseNotCharged: number;
	/** unknown_outcome answers (first answers). */
	unknownOutcomes: number;
	/** Of those, resolved later by client.reconcile (bought or not charged). */
	resolved: number;
	/** Records the busy account's other buyers made. */
	busyRecords: number;
	records: number;
	botCrashes: number;
	outcomes: Record<string, number>;
	problems: string[];
	lastLine: string;
}

interface Intent {
	/** Order id = X-Sandbox-Tag of its POSTs. */
	id: string;
	req: PurchaseRequest;
	fault: ActorFault | null;
	retryIfNotCharged: boolean;
	/** Slow vendor: its first POST finishes after this many ms (instead of a fault). */
	slowMs?: number;
}

/** `later`: the answer of a reconcile after the run (`resolved` when it was conclusive: a record or not_charged). */
export type Outcome = (
	| { id: string; kind: 'result'; record: number | null; status: string; path: string }
	| { id: string; kind: 'error'; code: string; candidates: number[] }
) & {
	later?: boolean;
	resolved?: boolean;
	/** when its purchase was sent (ISO), for the audit's messages */ sentAt?: string;
};

interface Shared {
	/** Identical orders everyone picks from. */
	templates: PurchaseRequest[];
	/** The bot's data plan (the same plan as the data templates). */
	botPhones: string[];
}

const PHONES = ['08031110006', '08031110007'];
const REPO = resolve(__dirname, '..');
const BOT_TOKEN = '7000001:AAH-chaos_bot_token_value_0123456789';

/* ------------------------------------------------------------------ intents ------------- */

async function sharedOrders(client: VtuClient): Promise<Shared> {
	const plan = (await client.catalog.dataPlans('MTN')).find((p) => p.available && /^1GB SME /.test(p.label));
	const denom = (await client.catalog.recharge()).find((d) => d.network === 'MTN');
	if (!plan || !denom) throw new Error('the sandbox catalogue has no MTN 1GB SME plan or MTN recharge denomination');
	return {
		templates: [
			...PHONES.map((phone) => ({ product: 'data' as const, network: 'MTN', plan: plan.id, phone })),
			{ product: 'airtime', network: 'MTN', amount: 100, phone: PHONES[0] },
			{ product: 'exam_pin', exam: 'WAEC', quantity: 1 },
			{ product: 'exam_pin', exam: 'NECO', quantity: 1 },
			{ product: 'recharge_card', network: 'MTN', denomination: denom.id, quantity: 1, nameOnCard: 'Chaos' },
		],
		botPhones: PHONES,
	};
}

function drawFault(rng: Rng, faultRate: number): ActorFault | null {
	return rng.float() < faultRate ? ACTOR_FAULTS[rng.u32() % ACTOR_FAULTS.length] : null;
}

export function actorIntents(
	actor: number,
	n: number,
	seed: number,
	faultRate: number,
	templates: PurchaseRequest[],
	slow?: ActorsOptions['slow'],
): Intent[] {
	const rng = new Rng(seed * 1009 + actor * 7 + 1);
	// the slow vendor draws from its own stream, so the other draws of a seed stay as they were
	const slowRng = new Rng(seed * 2003 + actor * 11 + 3);
	const uniqRng = new Rng(seed * 3001 + actor * 13 + 5);
	return Array.from({ length: n }, (_, i) => {
		const fault = drawFault(rng, faultRate);
		const x: Intent = {
			id: `a${actor}-${i}`,
			req: templates[rng.u32() % templates.length],
			fault,
			retryIfNotCharged: fault === 'error_before' && rng.float() < 0.5,
		};
		if (slow && slow.share > 0 && slowRng.float() < slow.share) {
			// the vendor is slow on this one instead of failing; half of them with the opt-in retry, which
			// must act only on a proven not_charged (else: a double charge)
			x.slowMs = Math.round(slow.minMs + slowRng.float() * (slow.maxMs - slow.minMs));
			x.fault = null;
			x.retryIfNotCharged = slowRng.float() < 0.5;
		}
		// Half of the troubled orders go to a phone nobody else orders for (until the busy buyers copy one): on a
		// shared account only those can be resolved later (a proven not_charged once the vendor's bound has
		// passed with no candidate); identical orders stay honestly unknown, a lone candidate included.
		if ((x.fault || x.slowMs) && 'phone' in x.req && uniqRng.float() < 0.5)
			x.req = { ...x.req, phone: `08039${actor % 10}${String(i).padStart(5, '0')}` };
		return x;
	});
}

/* ------------------------------------------------------------------ fault transport ------ */

interface Current {
	tag: string;
	fault: ActorFault | null;
	slowMs?: number;
	posted: boolean;
	readFaulted: boolean;
}

const SERVER_FAULT: Partial<Record<ActorFault, string>> = {
	timeout_after: 'timeout_after',
	reset_after: 'reset_after',
	html_after: 'html_after',
	error_before: 'error_before',
	rate_limit: 'rate_limit:0',
	reconcile_read_error: 'timeout_after',
};

/** Tags every POST with its order and applies the order's one fault to its first POST (and first read after). */
function faultTransport(
	current: () => Current | undefined,
	hooks: { beforePost?: (c: Current) => void; afterPost?: (c: Current) => void } = {},
): Transport {
	const inner = createNodeTransport();
	return async (req) => {
		const cur = current();
		if (!cur) return inner(req);
		const headers: Record<string, string> = { ...req.headers };
		if (req.method === 'POST') {
			headers['x-sandbox-tag'] = cur.tag;
			if (!cur.posted) {
				cur.posted = true;
				if (cur.fault === 'refused') throw new TransportError('refused', 'injected connection refused');
				const f = cur.slowMs ? `slow:${cur.slowMs}` : cur.fault && SERVER_FAULT[cur.fault];
				if (f) headers['x-sandbox-fault'] = f;
			}
			hooks.beforePost?.(cur);
			try {
				return await inner({ ...req, headers });
			} finally {
				hooks.afterPost?.(cur); // the POST left, whatever came back
			}
		}
		if (cur.fault === 'reconcile_read_error' && cur.posted && !cur.readFaulted) {
			cur.readFaulted = true;
			headers['x-sandbox-fault'] = 'error_before';
		}
		return inner({ ...req, headers });
	};
}

const emit = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

function outcomeOf(id: string, p: Promise<PurchaseResult>, onError?: (e: VtuError) => void): Promise<Outcome> {
	return p.then(
		(r) => ({ id, kind: 'result' as const, record: r.id, status: r.status, path: r.path }),
		(e) => {
			if (!(e instanceof VtuError)) throw e;
			onError?.(e);
			const candidates = (e.candidates ?? [])
				.map((c) => (c as { id?: number }).id)
				.filter((x): x is number => typeof x === 'number');
			return { id, kind: 'error' as const, code: e.code, candidates };
		},
	);
}

/** An unknown outcome waiting to be resolved the way a user would: reconcile once the proof is possible. */
export interface Unresolved {
	id: string;
	client: VtuClient;
	request: PurchaseRequest;
	sentAt: Date;
	/** The customer_ref the POST carried (details.customerRef; null: none), passed back as a user would. */
	customerRef?: string | null;
	/** When a proven answer becomes possible (ms). */
	after: number;
	/** Give up (leave it unknown) after this (ms). */
	deadline: number;
	/** Its latest unknown_outcome answer (first the purchase's own): what stands if it never resolves. */
	last: Outcome;
}

/**
 * The fixed interface: `VtuUnknownOutcomeError.details` = { request, sentAt, resolvableAfter, … }. Where a
 * client does not give them yet, the order's own request and send time stand in, resolvable at once.
 */
export function unresolvedOf(
	e: VtuError,
	x: { id: string; req: PurchaseRequest },
	client: VtuClient,
	startedAt: number,
	graceMs: number,
): Unresolved {
	const d = (e.details ?? {}) as {
		request?: PurchaseRequest;
		sentAt?: string;
		resolvableAfter?: string;
		customerRef?: string | null;
	};
	const sentAt = d.sentAt ? new Date(d.sentAt) : new Date(startedAt);
	const after = d.resolvableAfter ? Date.parse(d.resolvableAfter) : Date.now();
	const candidates = (e.candidates ?? [])
		.map((c) => (c as { id?: number }).id)
		.filter((v): v is number => typeof v === 'number');
	return {
		id: x.id,
		client,
		request: d.request ?? x.req,
		sentAt,
		customerRef: d.customerRef,
		after,
		deadline: Math.max(after, Date.now()) + graceMs,
		last: { id: x.id, kind: 'error', code: 'unknown_outcome', candidates },
	};
}

/**
 * After the run: `client.reconcile(request, { sentAt, waitMs: 0 })` for each unknown outcome once its
 * resolvableAfter has passed, again (every `retryMs`) while it stays unknown, until it resolves or its
 * deadline passes. Returns each one's last answer: conclusive ones (a record, or not_charged) marked
 * `resolved`; the others as they stood at the deadline (their candidates must then hold the record).
 */
export async function resolveUnknowns(pending: Unresolved[], retryMs: number): Promise<Outcome[]> {
	const out: Outcome[] = [];
	let left = pending;
	while (left.length) {
		const now = Date.now();
		const due = left.filter((u) => u.after <= now);
		if (!due.length) {
			await sleep(Math.min(...left.map((u) => u.after)) - now);
			continue;
		}
		for (const u of due) {
			let again: number | null = null;
			const o = await outcomeOf(
				u.id,
				u.client.reconcile(u.request, { sentAt: u.sentAt, customerRef: u.customerRef, waitMs: 0 }),
				(e) => {
					const ra = (e.details as { resolvableAfter?: string } | undefined)?.resolvableAfter;
					again = Math.max(Date.now() + retryMs, ra ? Date.parse(ra) : 0);
				},
			).catch((e) => ({
				id: u.id,
				kind: 'error' as const,
				code: `crash: ${e instanceof Error ? e.message : String(e)}`.slice(0, 200),
				candidates: [],
			}));
			const conclusive = o.kind === 'result' || o.code === 'not_charged';
			// another error (a read failed, the client refused the call): no new answer, the last unknown stands
			if (o.kind === 'error' && o.code === 'unknown_outcome') u.last = o;
			if (conclusive || Date.now() >= u.deadline) {
				out.push({ ...(conclusive ? o : u.last), later: true, resolved: conclusive, sentAt: u.sentAt.toISOString() });
				left = left.filter((v) => v !== u);
			} else u.after = again ?? Date.now() + retryMs;
		}
	}
	return out;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/* ------------------------------------------------------------------ children ------------ */

interface ChildConfig {
	baseUrl: string;
	token: string;
	timeoutMs: number;
	/** reconcile.maxProcessingMs of the clients (the vendor's processing bound). */
	maxProcessingMs: number;
}

interface ActorConfig extends ChildConfig {
	actor: number;
	intents: Intent[];
}

/** The clients' reconcile settings: a shared account (the docs' prescription) and the vendor's bound. */
function reconcileSettings(cfg: ChildConfig): VtuClientOptions['reconcile'] {
	// built apart from the literal: clients without maxProcessingMs yet simply ignore it
	const r = {
		waitMs: cfg.timeoutMs * 2,
		pollMs: Math.round(cfg.timeoutMs / 4),
		sharedAccount: true,
		maxProcessingMs: cfg.maxProcessingMs,
	};
	return r;
}

async function actorChild(cfg: ActorConfig): Promise<void> {
	const als = new AsyncLocalStorage<Current>();
	const transport = faultTransport(() => als.getStore());
	// two n8n executions in one process: two clients of the same account
	const clients = [0, 1].map(
		() =>
			new VtuClient({
				baseUrl: cfg.baseUrl,
				token: cfg.token,
				transport,
				timeoutMs: cfg.timeoutMs,
				customerRef: cfg.actor % 2 === 0,
				reconcile: reconcileSettings(cfg),
				retry: { maxAttempts: 3, maxDelayMs: 1500 },
			}),
	);
	await warmCatalog(cfg.baseUrl, cfg.token);
	const unknown: Unresolved[] = [];
	await Promise.all(
		clients.map(async (client, lane) => {
			for (const x of cfg.intents.filter((_, i) => i % 2 === lane)) {
				const cur: Current = { tag: x.id, fault: x.fault, slowMs: x.slowMs, posted: false, readFaulted: false };
				const startedAt = Date.now();
				const keep = (e: VtuError) => {
					if (e.code === 'unknown_outcome') unknown.push(unresolvedOf(e, x, client, startedAt, cfg.maxProcessingMs));
				};
				emit(
					await als.run(cur, () =>
						outcomeOf(x.id, client.buy(x.req, { retryIfNotCharged: x.retryIfNotCharged }), keep),
					),
				);
			}
		}),
	);
	for (const o of await resolveUnknowns(unknown, 1000)) emit(o);
	emit({ done: true });
}

interface BotConfig extends ChildConfig {
	dbPath: string;
	intents: Intent[];
	/** First intent to run (after a restart). */
	start: number;
	/** Kill this process at intent `index`: before its POST leaves, or after it was answered. */
	crash: { index: number; when: 'before' | 'after' } | null;
	/** Which bot instance (0 for the single bot): its users and Telegram update ids are its own. */
	instance: number;
	/** VTU_TOKEN_SHARED of this instance (the client's reconcile.sharedAccount). */
	tokenShared: boolean;
	/** VTU_CUSTOMER_REF of this instance (the client's customerRef). */
	customerRef: boolean;
	/** How many instances run (the allowlist, like every setting, is the same on all of them). */
	instances: number;
}

/** The bot's client as bot/main.ts builds it from its settings (the lane's fault transport and timeouts). */
function botClient(cfg: BotConfig, transport: Transport): VtuClient {
	return new VtuClient({
		baseUrl: cfg.baseUrl,
		token: cfg.token,
		transport,
		timeoutMs: cfg.timeoutMs,
		customerRef: cfg.customerRef,
		reconcile: { ...reconcileSettings(cfg), sharedAccount: cfg.tokenShared },
		retry: { maxAttempts: 3, maxDelayMs: 1500 },
	});
}

async function botChild(cfg: BotConfig): Promise<void> {
	const { createBot } = await import('../bot/bot');
	const { openDatabase } = await import('../bot/db');
	const { createLogger } = await import('../bot/logger');
	const { FakeTelegram } = await import('../test/bot/fake-telegram');
	const { dataToConfirm } = await import('../test/bot/harness');
	const tg = await new FakeTelegram().start();
	// a restarted process must not replay update ids the journal's dedupe table has already seen; instances
	// share that table (one bot token: Telegram's update ids are one sequence), so each has its own range
	(tg as unknown as { nextUpdateId: number }).nextUpdateId = 10_000_000 * cfg.instance + 100_000 * (cfg.start + 2);
	const users = [
		{ id: 910_001 + 100 * cfg.instance, first_name: 'Alice', username: `alice${cfg.instance}` },
		{ id: 910_002 + 100 * cfg.instance, first_name: 'Bob', username: `bob${cfg.instance}` },
	];
	let current: Current | undefined;
	let crashTag: string | undefined; // the order whose POST kills this process
	const kill = (when: 'before' | 'after') => (c: Current) => {
		if (cfg.crash?.when === when && c.tag === crashTag) process.kill(process.pid, 'SIGKILL');
	};
	const transport = faultTransport(() => current, { beforePost: kill('before'), afterPost: kill('after') });
	const client = botClient(cfg, transport);
	// Unknown outcomes of the bot's orders: their candidates go to the audit (buy: the order in flight;
	// follower reconcile: matched by sentAt).
	const reportUnknown = (e: unknown, key: Record<string, unknown>) => {
		if (e instanceof VtuError && e.code === 'unknown_outcome') {
			emit({ unknown: true, ...key, candidates: (e.candidates ?? []).map((c) => (c as { id?: number }).id) });
		}
	};
	const wrapped = Object.assign(Object.create(client) as VtuClient, {
		buy: (req: PurchaseRequest, o?: object) =>
			client.buy(req, o).catch((e) => {
				reportUnknown(e, { order: current?.tag });
				throw e;
			}),
		reconcile: (req: PurchaseRequest, o: Parameters<VtuClient['reconcile']>[1]) =>
			client.reconcile(req, o).catch((e) => {
				reportUnknown(e, { sentAt: new Date(o.sentAt).getTime() });
				throw e;
			}),
	});
	await warmCatalog(cfg.baseUrl, cfg.token);
	const app = createBot(
		{
			telegramToken: BOT_TOKEN,
			vtuToken: cfg.token,
			adminIds: [],
			allowedIds: Array.from({ length: cfg.instances }, (_, k) => [910_001 + 100 * k, 910_002 + 100 * k]).flat(),
			maxPurchaseKobo: 1e9,
			dailyLimitKobo: 1e12,
			// the follower's loop is not started here (ticks are explicit); this is how soon an unclear order may be
			// checked again, and the bot's processing bound is the client's, as bot/main.ts sets them
			followIntervalMs: 2_000,
			maxProcessingMs: cfg.maxProcessingMs,
			// VTU_CUSTOMER_REF, as bot/main.ts passes it: the bot chooses the reference and journals it before the POST
			customerRef: cfg.customerRef,
			rateLimit: 1_000_000,
		},
		{
			client: wrapped,
			db: openDatabase(cfg.dbPath),
			botConfig: { client: { apiRoot: tg.apiRoot } },
			autoRetry: false,
			logger: createLogger({ level: 'error', secrets: [cfg.token, BOT_TOKEN], write: () => undefined }),
		},
	);
	await app.init(); // start-up recovery of orders a kill left in `sent`
	const send = (u: unknown) => app.bot.handleUpdate(u as never);
	const driver = { tg, send: (_: unknown, u: unknown) => send(u) };
	for (let i = cfg.start; i < cfg.intents.length; i++) {
		const x = cfg.intents[i];
		const u = users[i % users.length];
		emit({ started: i });
		try {
			await dataToConfirm(driver, app, u, { phone: (x.req as { phone: string }).phone });
			// the lane buys identical orders on purpose: say yes to "You bought this … ago. Buy it again?"
			if (/^You bought this /.test(tg.lastText(u.id) ?? '')) await send(tg.buttonUpdate(u, '🔁 Yes, buy again'));
			const confirm = tg.buttonUpdate(u, /^confirm:/);
			const order = String(confirm.callback_query.data).slice('confirm:'.length);
			emit({ intent: i, order, fault: x.fault });
			current = { tag: order, fault: x.fault, posted: false, readFaulted: false };
			// the kill lands on the first order from crash.index whose POST is really sent
			if (cfg.crash && i >= cfg.crash.index) crashTag = order;
			await send(confirm);
			current = undefined;
			crashTag = undefined;
		} catch (e) {
			// a flow step failed (e.g. a catalogue read timed out on a loaded machine): nothing was confirmed
			emit({ skipped: i, why: e instanceof Error ? e.message.slice(0, 200) : String(e) });
			current = undefined;
			await send(tg.textUpdate(u, '/cancel')).catch(() => undefined);
		}
	}
	// one more pass over orders left unknown (those it settles count as resolved)
	emit({ unknownBefore: app.journal.listByState('unknown').map((x) => x.id) });
	await app.follower.tick();
	emit({ done: true });
	await app.close();
	app.db.close();
	await tg.close();
}

/**
 * Load the catalogue before a run through a patient client: the cache is per account and process, so the
 * run's clients (short timeouts) start with it, however busy the machine is.
 */
export async function warmCatalog(baseUrl: string, token: string): Promise<void> {
	await new VtuClient({ baseUrl, token, timeoutMs: 30_000 }).catalog.get();
}

/** Runs a child (this file with --child); resolves with its JSON lines and how it ended. */
function runChild(
	kind: 'actor' | 'bot',
	cfg: object,
	log: (s: string) => void,
): Promise<{ lines: Record<string, unknown>[]; signal: NodeJS.Signals | null; code: number | null }> {
	return new Promise((resolveRun, reject) => {
		const proc = spawn(process.execPath, ['--import', 'tsx', __filename, '--child', kind], {
			cwd: REPO,
			stdio: ['pipe', 'pipe', 'inherit'],
		});
		proc.stdin!.end(JSON.stringify(cfg));
		const lines: Record<string, unknown>[] = [];
		createInterface({ input: proc.stdout! }).on('line', (l) => {
			try {
				lines.push(JSON.parse(l) as Record<string, unknown>);
			} catch {
				log(`${kind}: ${l}`);
			}
		});
		proc.once('error', reject);
		proc.once('close', (code, signal) => resolveRun({ lines, code, signal }));
	});
}

/* ------------------------------------------------------------------ run + audit --------- */

type BotPlanOptions = { botOrders: number; seed: number; faultRate: number };

/**
 * One bot instance's orders (alternating the two data templates, identical to the actors' and the other
 * instances') with their faults, and its two kills: between confirm and POST, and after the POST was
 * answered but before the journal knew. Instance 0 draws what the single bot always drew.
 */
function botPlan(
	o: BotPlanOptions,
	templates: PurchaseRequest[],
	k: number,
): { intents: Intent[]; crashes: Array<{ index: number; when: 'before' | 'after' }> } {
	const rng = new Rng(o.seed * 31 + 5 + k * 1_000_003);
	const intents: Intent[] = Array.from({ length: o.botOrders }, (_, i) => {
		const fault = drawFault(rng, o.faultRate);
		return {
			id: k === 0 ? `b${i}` : `b${k}-${i}`,
			req: templates[i % 2],
			fault: fault === 'error_before' ? 'html_after' : fault,
			retryIfNotCharged: false,
		};
	});
	const crashes =
		o.botOrders >= 4
			? [
					{ index: 1 + (rng.u32() % Math.floor(o.botOrders / 2)), when: 'before' as const },
					{
						index: Math.floor(o.botOrders / 2) + 1 + (rng.u32() % Math.ceil(o.botOrders / 2 - 1)),
						when: 'after' as const,
					},
				]
			: [];
	return { intents, crashes };
}

/** Runs one bot instance to the end of its orders, restarting it (same journal) after each planned kill. */
async function runBot(
	cfg: Omit<BotConfig, 'start' | 'crash'>,
	crashes: Array<{ index: number; when: 'before' | 'after' }>,
	log: (s: string) => void,
): Promise<{ lines: Record<string, unknown>[]; kills: number }> {
	const lines: Record<string, unknown>[] = [];
	const name = cfg.instances > 1 ? `bot instance ${cfg.instance}` : 'bot';
	let start = 0;
	let kills = 0;
	for (;;) {
		const crash = crashes[kills] ?? null;
		const r = await runChild('bot', { ...cfg, start, crash }, log);
		lines.push(...r.lines);
		for (const l of r.lines) if (l.skipped !== undefined) log(`${name} order ${l.skipped} not placed: ${l.why}`);
		if (r.lines.some((l) => l.done)) return { lines, kills };
		if (r.signal !== 'SIGKILL' || !crash)
			throw new Error(`${name} child ended unexpectedly (code ${r.code}, signal ${r.signal})`);
		kills++;
		const killedAt = Math.max(...r.lines.filter((l) => typeof l.intent === 'number').map((l) => l.intent as number));
		log(`${name} killed at order ${killedAt} (${crash.when} the POST); restarting`);
		start = killedAt + 1;
	}
}

export async function runActors(opts: ActorsOptions = {}): Promise<ActorsReport> {
	const slow = opts.slow ?? { share: 0, minMs: 4000, maxMs: 12_000 };
	const o = {
		actors: Math.max(1, opts.actors ?? 3),
		purchases: opts.purchases ?? 40,
		botOrders: opts.botOrders ?? 10,
		seed: opts.seed ?? 7,
		faultRate: opts.faultRate ?? 0.2,
		timeoutMs: opts.timeoutMs ?? 2000,
		busy: opts.busy ?? 0,
		slow,
		maxProcessingMs: opts.maxProcessingMs ?? slow.maxMs + 8000,
		botInstances: Math.max(1, opts.botInstances ?? 1),
		// one bot: a client for a shared token (the actors buy on it too); several: as configured
		bot:
			(opts.botInstances ?? 1) <= 1
				? { tokenShared: true, customerRef: false }
				: { tokenShared: opts.botTokenShared ?? true, customerRef: opts.botCustomerRef ?? true },
	};
	const log = opts.log ?? (() => undefined);
	const sb = await startSandbox({ port: 0, seed: o.seed, dialect: opts.dialect ?? 'seed' });
	const dir = mkdtempSync(join(tmpdir(), 'vtu-chaos-actors-'));
	try {
		const admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
		await admin.setConfig({ request_faults: true, customer_ref: true });
		const { token } = await admin.createUser({ username: 'chaos', balance: '100000000.00' });
		const reader = new VtuClient({ baseUrl: sb.baseUrl, token, timeoutMs: 30_000 });
		const shared = await sharedOrders(reader);
		const base: ChildConfig = {
			baseUrl: sb.baseUrl,
			token,
			timeoutMs: o.timeoutMs,
			maxProcessingMs: o.maxProcessingMs,
		};

		const actorIntentsList = Array.from({ length: o.actors }, (_, a) =>
			actorIntents(a, o.purchases, o.seed, o.faultRate, shared.templates, o.slow),
		);
		// the other buyers of the account, for the whole run (bounded: stopped below, and by the sandbox's own limits)
		if (o.busy > 0)
			await admin.startBusy({ rate: o.busy, username: 'chaos', maxRecords: 10_000_000, durationMs: 3_600_000 });
		// the bot: one instance (a shared-token client), or several on one journal as bot/README documents them
		const plans = Array.from({ length: o.botInstances }, (_, k) => botPlan(o, shared.templates, k));
		const botCfg = { ...base, dbPath: join(dir, 'bot.sqlite'), instances: o.botInstances, ...o.bot };
		const botRuns = Promise.all(
			plans.map((p, k) => runBot({ ...botCfg, instance: k, intents: p.intents }, p.crashes, log)),
		);
		const actorRuns = actorIntentsList.map((intents, actor) => runChild('actor', { ...base, actor, intents }, log));
		const [bots, ...actors] = await Promise.all([botRuns, ...actorRuns]);
		const bot = { lines: bots.flatMap((b) => b.lines), kills: bots.reduce((n, b) => n + b.kills, 0) };
		const botIntents = plans.flatMap((p) => p.intents);
		for (const [i, a] of actors.entries())
			if (!a.lines.some((l) => l.done))
				throw new Error(`actor ${i} ended without finishing (code ${a.code}, signal ${a.signal})`);
		const busy = o.busy > 0 ? await admin.stopBusy() : null;
		await untilSettled(admin, o.slow.maxMs + 30_000);
		// the bot keeps watching its unclear orders: one instance's follower once they are due (shared journal)
		bot.lines.push(...(await botFollowUp({ ...botCfg, instance: 0 }, o.maxProcessingMs + 30_000, log)));

		const { outcomes, unknownFirst, resolved } = mergeAnswers(
			actors.flatMap((a) => a.lines.filter((l) => l.id) as unknown as Outcome[]),
		);
		const botOut = await botAnswers(join(dir, 'bot.sqlite'), bot.lines);
		outcomes.push(...botOut);
		const txns = await admin.transactions({ username: 'chaos' });
		const ledger = await admin.ledger('chaos');
		const report = audit(
			outcomes,
			txns,
			ledger.filter((e) => e.kind === 'debit').map((e) => `${e.product}|${e.txnId}`),
		);
		report.faults = [...actorIntentsList.flat(), ...botIntents].filter((x) => x.fault || x.slowMs).length + bot.kills;
		report.botCrashes = bot.kills;
		// U: first answers that were unknown (the bot's unclear orders count, resolved by its own follower or not)
		const botUnknown = botOut.filter((x) => x.later || (x.kind === 'error' && x.code === 'unknown_outcome'));
		report.unknownOutcomes = unknownFirst + botUnknown.length;
		report.resolved = resolved + botUnknown.filter((x) => x.resolved).length;
		report.busyRecords = busy?.created ?? 0;
		report.lastLine = summaryLine(report);
		return report;
	} finally {
		await sb.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The bot's orders as its journal has them: what the user was told (candidates of unclear ones from its lines). */
async function botAnswers(dbPath: string, lines: Record<string, unknown>[]): Promise<Outcome[]> {
	const { openDatabase } = await import('../bot/db');
	const db = openDatabase(dbPath);
	const orders = db.prepare(`SELECT id, state, vendor_id, sent_at FROM orders`).all() as Array<{
		id: string;
		state: string;
		vendor_id: number | null;
		sent_at: number | null;
	}>;
	db.close();
	const unknownCands = new Map<string, number[]>();
	for (const l of lines) {
		if (!l.unknown) continue;
		const order = (l.order as string | undefined) ?? orders.find((x) => x.sent_at === l.sentAt)?.id;
		if (order)
			unknownCands.set(
				order,
				(l.candidates as number[]).filter((x) => typeof x === 'number'),
			);
	}
	const confirmed = new Set(lines.filter((l) => l.order).map((l) => l.order as string));
	// orders a follower pass found unclear: their final state is the answer of their resolution
	const unclear = new Set(lines.flatMap((l) => (Array.isArray(l.unknownBefore) ? (l.unknownBefore as string[]) : [])));
	const out: Outcome[] = [];
	for (const ord of orders) {
		if (!confirmed.has(ord.id)) continue; // never confirmed (a flow step failed)
		const later = unclear.has(ord.id) ? { later: true, resolved: ord.state !== 'unknown' } : {};
		if (ord.state === 'successful' || ord.state === 'processing' || ord.state === 'failed') {
			out.push({ id: ord.id, kind: 'result', record: ord.vendor_id, status: ord.state, path: 'bot', ...later });
		} else {
			out.push({
				id: ord.id,
				kind: 'error',
				code: ord.state === 'unknown' ? 'unknown_outcome' : ord.state,
				candidates: unknownCands.get(ord.id) ?? [],
				...later,
			});
		}
	}
	return out;
}

/**
 * The bot's follower settling its unclear orders after the run, as a running bot does: once every unknown
 * order in the journal is due (its recheck time, at most `maxWaitMs` from now), one bot process (no orders
 * of its own) starts on the journal and makes one follower pass.
 */
async function botFollowUp(
	cfg: Omit<BotConfig, 'start' | 'crash' | 'intents'>,
	maxWaitMs: number,
	log: (s: string) => void,
): Promise<Record<string, unknown>[]> {
	const { openDatabase } = await import('../bot/db');
	const db = openDatabase(cfg.dbPath);
	const { at } = db.prepare(`SELECT MAX(COALESCE(recheck_at, 0)) AS at FROM orders WHERE state = 'unknown'`).get() as {
		at: number | null;
	};
	db.close();
	if (at === null) return [];
	await sleep(Math.min(at - Date.now() + 250, maxWaitMs));
	const r = await runChild('bot', { ...cfg, intents: [], start: 0, crash: null }, log);
	if (!r.lines.some((l) => l.done))
		throw new Error(`bot follow-up ended unexpectedly (code ${r.code}, signal ${r.signal})`);
	return r.lines;
}

/** Slow purchases finish on the vendor's time, whoever still waits for them: audit only when none is left. */
async function untilSettled(admin: SandboxAdmin, maxMs: number): Promise<void> {
	const by = Date.now() + maxMs;
	while ((await admin.capacity()).inFlight > 0) {
		if (Date.now() > by) throw new Error("purchases still in flight on the sandbox long after the slow vendor's bound");
		await sleep(250);
	}
}

/** An order's answer is its first one, replaced where it was unknown by the last answer of its resolution. */
function mergeAnswers(lines: Outcome[]): { outcomes: Outcome[]; unknownFirst: number; resolved: number } {
	const laterById = new Map(lines.filter((l) => l.later).map((l) => [l.id, l]));
	const firsts = lines.filter((l) => !l.later);
	return {
		outcomes: firsts.map((l) => laterById.get(l.id) ?? l),
		unknownFirst: firsts.filter((l) => l.kind === 'error' && l.code === 'unknown_outcome').length,
		resolved: [...laterById.values()].filter((l) => l.resolved).length,
	};
}

export function audit(outcomes: Outcome[], txns: AdminTxn[], debitKeys: string[]): ActorsReport {
	const r: ActorsReport = {
		purchases: outcomes.length,
		faults: 0,
		doubleCharges: 0,
		lost: 0,
		falseSuccesses: 0,
		falseNotCharged: 0,
		unknownOutcomes: 0,
		resolved: 0,
		busyRecords: 0,
		records: txns.length,
		botCrashes: 0,
		outcomes: {},
		problems: [],
		lastLine: '',
	};
	const debited = new Set(debitKeys);
	const byTag = new Map<string, AdminTxn[]>();
	for (const t of txns) byTag.set(t.tag ?? '', [...(byTag.get(t.tag ?? '') ?? []), t]);
	const ids = new Set(outcomes.map((x) => x.id));
	for (const [tag, ts] of byTag) {
		if (ids.has(tag) || tag === BUSY_TAG) continue; // BUSY_TAG: the busy account's other buyers
		r.lost += ts.length;
		r.problems.push(
			`LOST: record(s) ${ts.map((t) => `${t.product}#${t.id}`).join(', ')} tagged ${JSON.stringify(tag)} belong to no ` +
				`order`,
		);
	}
	for (const x of outcomes) {
		const mine = byTag.get(x.id) ?? [];
		const when = x.resolved ? ' [resolved later]' : x.later ? ' [still, after the run]' : '';
		const label = `${x.kind === 'result' ? `${x.status} (${x.path})` : x.code}${when}`;
		r.outcomes[label] = (r.outcomes[label] ?? 0) + 1;
		const charged = mine.filter((t) => debited.has(`${t.product}|${t.id}`));
		if (charged.length > 1) {
			r.doubleCharges++;
			r.problems.push(`DOUBLE ${x.id}: records ${charged.map((t) => t.id).join(', ')}`);
		}
		if (x.kind === 'result') {
			if (!mine.some((t) => t.id === x.record)) {
				r.falseSuccesses++;
				r.problems.push(
					`FALSE SUCCESS ${x.id}: reported ${x.status} with record ${x.record}, which is not its own (its records: ` +
						`${mine.map((t) => t.id).join(', ') || 'none'})`,
				);
			}
		} else if (x.code === 'not_charged' && charged.length) {
			r.falseNotCharged++;
			const when = x.sentAt ? ` (sent ${x.sentAt}; created ${charged.map((t) => t.created).join(', ')})` : '';
			r.problems.push(
				`FALSE NOT-CHARGED ${x.id}${x.resolved ? ' (resolved later)' : ''}: not_charged but its debited record(s) ` +
					`${charged.map((t) => `${t.product}#${t.id}`).join(', ')} exist${when}`,
			);
		} else if (x.code === 'unknown_outcome') {
			r.unknownOutcomes++;
			const missing = mine.filter((t) => !x.candidates.includes(t.id));
			if (missing.length) {
				r.lost++;
				r.problems.push(
					`LOST ${x.id}: unknown_outcome with candidates [${x.candidates.join(', ')}] missing its record(s) ` +
						`${missing.map((t) => t.id).join(', ')}`,
				);
			}
		} else if (mine.length) {
			r.lost++;
			r.problems.push(
				`LOST ${x.id}: reported ${x.code} but its record(s) ${mine.map((t) => `${t.product}#${t.id}`).join(', ')} exist`,
			);
		}
	}
	return r;
}

/** The run's last line (issue 19's format); every count but N, F, U and R must be 0. */
export function summaryLine(
	r: Pick<
		ActorsReport,
		| 'purchases'
		| 'faults'
		| 'doubleCharges'
		| 'lost'
		| 'falseSuccesses'
		| 'falseNotCharged'
		| 'unknownOutcomes'
		| 'resolved'
	>,
): string {
	return (
		`chaos: ${r.purchases} purchases, ${r.faults} faults, ${r.doubleCharges} double charges, ${r.lost} lost, ` +
		`${r.falseSuccesses} false successes, ` +
		`${r.falseNotCharged} false not-charged, ${r.unknownOutcomes} unknown (${r.resolved} resolved)`
	);
}

export function formatActors(r: ActorsReport): string {
	const L = [
		`multi-actor chaos: ${r.purchases} orders (${r.botCrashes} bot kill(s)), ${r.records} records on the server ` +
			`(${r.busyRecords} by the busy account's other buyers)`,
		'',
		'Outcomes (an unknown is shown by the last answer of its resolution after the run)',
	];
	for (const [k, v] of Object.entries(r.outcomes).sort(([a], [b]) => a.localeCompare(b)))
		L.push(`  ${k.padEnd(34)} ${String(v).padStart(6)}`);
	L.push('', `  unknown_outcome first answers  ${r.unknownOutcomes}, resolved later ${r.resolved}`);
	if (r.problems.length) L.push('', `Problems (${r.problems.length})`, ...r.problems.slice(0, 40).map((p) => `  ${p}`));
	return L.join('\n');
}

/* ------------------------------------------------------------------ child entry --------- */

async function childMain(kind: string): Promise<void> {
	let input = '';
	for await (const chunk of process.stdin) input += chunk;
	const cfg = JSON.parse(input);
	if (kind === 'actor') await actorChild(cfg as ActorConfig);
	else await botChild(cfg as BotConfig);
	process.exit(0);
}

if (require.main === module && process.argv[2] === '--child') {
	childMain(process.argv[3]).catch((e) => {
		process.stderr.write(`chaos child: ${e instanceof Error ? e.stack : String(e)}\n`);
		process.exit(2);
	});
}
