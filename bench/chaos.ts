/**
 * Chaos run of the safe-purchase mechanism (docs/design.md "Buying safely") against the sandbox.
 *
 *   npm run chaos -- --purchases 1000 --seed 7 [--dialect seed|family] [--concurrency 8]
 *   npm run chaos -- --actors 3 --fault-rate 0.8 --seed 4     (multi-actor lane: bench/chaos-actors.ts)
 *   npm run chaos -- --actors 3 --bot-instances 2 …             (the bot as several instances on one journal)
 *   npm run chaos -- --storefront --customers 12 --orders 4 --seed 1 [--backend both|postgres|sqlite]
 *                                        (storefront lane through bot instances: bench/chaos-storefront-bots.ts)
 *   npm run chaos -- --storefront --store-layer [--crash] …   (the store layer driven directly: chaos-storefront.ts)
 *
 * A seeded PRNG draws every intended purchase (product, recipient, amount) and, for ~20% of them, ONE
 * fault. Purchases run in `concurrency` lanes; each lane owns an in-process sandbox and a VtuClient and
 * runs its intents one after the other, so a `count:1` fault rule armed right before a purchase is hit by
 * that purchase's POST and by nothing else, and the global `settle` config (processing-then-settle) only
 * affects that purchase. Same seed + same lane count → same intents, same faults, same outcome table.
 *
 * Faults (per intent): timeout / reset / HTML 500 AFTER the debit, HTML 500 BEFORE it (half of those with
 * the opt-in `retryIfNotCharged`), 429 (Retry-After 0 or 1 s, or on every attempt), latency (below the
 * client timeout, or above it but inside the reconcile wait), processing-then-settle (short: settles inside
 * waitForFinal; long: after it, picked up by the follow-up), successful → failed flips (refund), connection
 * refused / DNS before sending (client-side: never reaches the server), and a POST timeout whose first
 * reconcile read also fails.
 *
 * The audit reads ONLY the sandbox (admin transactions + ledger + fault log), never the client's bookkeeping:
 * every intent has a unique recipient (phone / IUC / meter / name on card / SMS recipients), exam pins (no
 * unique field) are attributed to the latest same-exam intent started before the record was created.
 *   double charge: more than one record debited for one intent.
 *   lost: a record exists but the client said not_charged / an error; unknown_outcome whose candidates miss
 *         the record; a result whose record is not this intent's (or does not exist); a final status (after
 *         follow-up) that differs from the server's; a record no intent explains.
 *   refunds: every failed record has exactly one refund, none other has one, and the client's final view of
 *         that purchase is failed.
 *   false success: a result naming a record that is not this intent's (or, after resolution, the same).
 *   false not-charged: not_charged (first answer or resolution) while a debited record of the intent exists.
 * Unknown outcomes are resolved after the run with client.reconcile(request, { sentAt, waitMs: 0 }) once their
 * resolvableAfter has passed (bench/chaos-actors.ts resolveUnknowns).
 * Last line: `chaos: <N> purchases, <F> faults, <D> double charges, <L> lost, <S> false successes,
 * <C> false not-charged, <U> unknown (<R> resolved)`.
 */
import { parseArgs } from 'node:util';
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
import { SandboxAdmin, type AdminTxn, type FaultInput, type LedgerEntry } from '../sandbox/admin-client';
import {
	CABLE_PLANS,
	CABLES,
	DATA_PLANS,
	DISCOS,
	EXAMS,
	NETWORKS,
	RECHARGE_DENOMS,
	planAvailable,
} from '../sandbox/catalog';
import { Rng } from '../sandbox/rng';
import { startSandbox } from '../sandbox/server';
import { formatRuns, lastLine, runStorefrontChaos } from './chaos-storefront';
import { runBotStorefrontChaos } from './chaos-storefront-bots';
import {
	formatActors,
	type Outcome,
	resolveUnknowns,
	runActors,
	summaryLine,
	type Unresolved,
	unresolvedOf,
	warmCatalog,
} from './chaos-actors';

export const PRODUCTS = ['data', 'airtime', 'cable', 'electricity', 'exam_pin', 'recharge_card', 'sms'] as const;
export type ChaosProduct = (typeof PRODUCTS)[number];

export const FAULT_KINDS = [
	'timeout_after',
	'reset_after',
	'html_after',
	'error_before',
	'rate_limit',
	'latency',
	'processing',
	'flip_later',
	'refused',
	'reconcile_read_error',
	'twin',
] as const;
export type ChaosFault = (typeof FAULT_KINDS)[number];

const PATHS: Record<ChaosProduct, string> = {
	data: '/api/data/',
	airtime: '/api/topup/',
	cable: '/api/cablesub/',
	electricity: '/api/billpayment/',
	exam_pin: '/api/epin/',
	recharge_card: '/api/rechargepin/',
	sms: '/api/sendsms/',
};

export interface ChaosOptions {
	purchases?: number;
	seed?: number;
	dialect?: 'seed' | 'family';
	/** Lanes (each: one sandbox + one client, purchases in sequence). Default 8. */
	concurrency?: number;
	/** Share of intents that get a fault. Default 0.2. */
	faultRate?: number;
	/** Client per-request timeout. Default 400 ms. */
	timeoutMs?: number;
	/** Progress lines (stderr in the CLI). */
	log?: (line: string) => void;
}

export interface Intent {
	i: number;
	lane: number;
	/** 'other': bought by another process of the same account (a raw POST: no client of this process knows its record). */
	actor: 'main' | 'other';
	product: ChaosProduct;
	req: PurchaseRequest;
	/** Attribution key matched against the sandbox record (product|recipient). */
	key: string;
	fault: ChaosFault | null;
	variant: string;
	retryIfNotCharged: boolean;
	startedAt: number;
	endedAt: number;
	outcome?:
		| { kind: 'result'; first: PurchaseResult; final: PurchaseResult; followupError?: string }
		| { kind: 'error'; code: string; candidates: number[]; message: string };
	/** An unknown_outcome's last answer after the run by client.reconcile (`resolved`: a record, or not_charged). */
	resolved?: Outcome;
}

export interface ChaosReport extends LaneAudit {
	seed: number;
	dialect: 'seed' | 'family';
	lanes: number;
	purchases: number;
	/** Intents that got a fault. */
	faults: number;
	/** Per kind: intents armed with it. */
	faultsByKind: Record<string, number>;
	/** Per kind: applications the sandbox logged (plus client-side refusals). */
	faultHits: Record<string, number>;
	products: Record<string, number>;
	outcomes: Record<string, number>;
	/** fault kind (or "none") → outcome label → count. */
	outcomesByFault: Record<string, Record<string, number>>;
	unknownOutcomes: number;
	durationMs: number;
	table: string;
	lastLine: string;
	intents: Intent[];
}

/* ------------------------------------------------------------------ intents ------------- */

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.u32() % xs.length];
const int = (rng: Rng, lo: number, hi: number) => lo + (rng.u32() % (hi - lo + 1));

function kindsFor(product: ChaosProduct): ChaosFault[] {
	// SMS is final at once (no processing), and its history rows carry no Status, so no client can see an
	// SMS flip: neither applies to SMS (README "Settlement"; see the report's weak spots).
	// The twin's raw POST is built from a quote, which SMS batches do not have.
	return FAULT_KINDS.filter((k) => !(product === 'sms' && (k === 'processing' || k === 'flip_later' || k === 'twin')));
}

export function makeIntents(n: number, seed: number, lanes: number, faultRate: number): Intent[] {
	const rng = new Rng(seed * 7919 + 17);
	const out: Intent[] = [];
	let group = 0;
	for (let i = 0; i < n; i++) {
		const product = pick(rng, PRODUCTS);
		let req: PurchaseRequest;
		let key: string;
		switch (product) {
			case 'data': {
				const net = pick(rng, NETWORKS);
				const plan = pick(
					rng,
					DATA_PLANS.filter((p) => p.networkId === net.id && planAvailable(p)),
				);
				const prefix = pick(rng, net.prefixes);
				const phone = prefix + pad(i, 11 - prefix.length);
				req = { product, network: net.name, plan: plan.id, phone };
				key = `data|${phone}`;
				break;
			}
			case 'airtime': {
				const net = pick(rng, NETWORKS);
				const prefix = pick(rng, net.prefixes);
				const phone = prefix + pad(i, 11 - prefix.length);
				const sns = rng.float() < 0.2;
				req = {
					product,
					network: net.id,
					amount: int(rng, sns ? 100 : 50, 2000),
					phone,
					...(sns ? { type: 'Share and Sell' as const } : {}),
				};
				key = `airtime|${phone}`;
				break;
			}
			case 'cable': {
				const cable = pick(rng, CABLES);
				const pkg = pick(
					rng,
					CABLE_PLANS.filter((p) => p.cableId === cable.id),
				);
				const iuc = `7${pad(i, 8)}1`;
				req = { product, provider: cable.name, package: pkg.id, iuc };
				key = `cable|${iuc}`;
				break;
			}
			case 'electricity': {
				const meter = `4${pad(i, 9)}1`;
				req = {
					product,
					disco: pick(rng, DISCOS).id,
					meter,
					meterType: rng.float() < 0.7 ? 'prepaid' : 'postpaid',
					amount: `${int(rng, 500, 8000)}.${pick(rng, ['00', '50'])}`,
				};
				key = `electricity|${meter}`;
				break;
			}
			case 'exam_pin': {
				const exam = pick(rng, EXAMS).name;
				req = { product, exam, quantity: int(rng, 1, 3) };
				key = `exam_pin|${exam}`;
				break;
			}
			case 'recharge_card': {
				const net = pick(rng, NETWORKS);
				const d = pick(
					rng,
					RECHARGE_DENOMS.filter((x) => x.networkId === net.id),
				);
				const nameOnCard = `Chaos ${seed}-${i}`;
				req = { product, network: net.name, denomination: d.id, quantity: int(rng, 1, 3), nameOnCard };
				key = `recharge_card|${nameOnCard}`;
				break;
			}
			case 'sms': {
				const k = int(rng, 1, 3);
				const to = Array.from({ length: k }, (_, j) => `0803${pad(i * 4 + j, 7)}`);
				req = {
					product,
					sender: 'Chaos',
					message: `chaos ${seed} purchase #${i}: your order is on its way`,
					recipients: to,
				};
				key = `sms|${to
					.map((p) => `234${p.slice(1)}`)
					.sort()
					.join(',')}`;
				break;
			}
		}
		let fault: ChaosFault | null = null;
		let variant = '';
		if (rng.float() < faultRate) {
			fault = pick(rng, kindsFor(product));
			const r = rng.float();
			switch (fault) {
				case 'error_before':
					variant = r < 0.5 ? 'retry' : 'plain';
					break;
				case 'rate_limit':
					variant = r < 0.6 ? 'ra0' : r < 0.85 ? 'ra1' : 'always';
					break;
				case 'latency':
					variant = r < 0.6 ? 'short' : 'long';
					break;
				case 'processing':
					variant = `${r < 0.7 ? 'short' : 'long'}-${rng.float() < 0.6 ? 'successful' : 'failed'}`;
					break;
				case 'refused':
					variant = r < 0.5 ? 'refused' : r < 0.85 ? 'dns' : 'always';
					break;
				default:
					variant = '';
			}
		}
		const retryIfNotCharged = fault === 'error_before' ? variant === 'retry' : rng.float() < 0.1;
		const lane = group++ % lanes;
		if (fault === 'twin') {
			if (i + 1 >= n) fault = null;
			else {
				// another process of the same account buys the identical thing while this purchase's POST hangs
				// (runLane); its answer is lost. Under `timeout` both records lie inside the purchase's window
				// whatever the machine's load: reconcile cannot tell them apart → unknown_outcome with both.
				// Under `html` the answer's arrival may close the window before the twin's record: adopted.
				variant = rng.float() < 0.5 ? 'timeout' : 'html';
				out.push({
					i,
					lane,
					actor: 'other',
					product,
					req,
					key,
					fault: null,
					variant: '',
					retryIfNotCharged: false,
					startedAt: 0,
					endedAt: 0,
				});
				i++;
			}
		}
		out.push({
			i,
			lane,
			actor: 'main',
			product,
			req,
			key,
			fault,
			variant,
			retryIfNotCharged,
			startedAt: 0,
			endedAt: 0,
		});
	}
	return out;
}

/* ------------------------------------------------------------------ lanes --------------- */

/** Client-side injection of "never reached the server" failures (connection refused / DNS) on POSTs. */
function refusingTransport(inner: Transport): {
	transport: Transport;
	arm(kind: 'refused' | 'dns', n: number): void;
	hits: () => number;
} {
	let pending = 0;
	let kind: 'refused' | 'dns' = 'refused';
	let hits = 0;
	return {
		transport: (req) => {
			if (req.method === 'POST' && pending > 0) {
				pending--;
				hits++;
				return Promise.reject(new TransportError(kind, `injected ${kind}`));
			}
			return inner(req);
		},
		arm: (k, n) => {
			kind = k;
			pending = n;
		},
		hits: () => hits,
	};
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A purchase by another process of the same account: the exact body the client would send, POSTed raw,
 * so no client of this process has seen (or claimed) its record; read back through `reader`.
 */
async function rawPurchase(reader: VtuClient, baseUrl: string, token: string, x: Intent): Promise<PurchaseResult> {
	const { request } = await reader.quote(x.req);
	const res = await fetch(`${baseUrl}${PATHS[x.product]}`, {
		method: 'POST',
		headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
		body: JSON.stringify(request),
	});
	const body = (await res.json()) as { id?: number };
	if (res.status !== 201 || typeof body.id !== 'number') throw new Error(`twin purchase failed: HTTP ${res.status}`);
	return reader.transactions.get(x.product, body.id);
}

/**
 * The twin of a hanging purchase: waits (a condition, not a time) until the sandbox holds the main purchase's
 * record, starts on a later millisecond (so the audit attributes each record to its own intent), buys.
 * Returns when it ended.
 */
async function buyTwinOnceMainRecorded(
	twin: Intent,
	admin: SandboxAdmin,
	recordsBefore: number,
	mainEnded: () => boolean,
	buy: () => Promise<PurchaseResult>,
): Promise<number> {
	// (or until the main purchase ended without one: then the twin simply comes after it)
	while ((await admin.transactions({ username: 'chaos' })).length <= recordsBefore && !mainEnded()) await sleep(5);
	const seen = Date.now();
	while (Date.now() <= seen) await sleep(1);
	twin.startedAt = Date.now();
	try {
		const r = await buy();
		twin.outcome = { kind: 'result', first: r, final: r };
	} catch (e) {
		twin.outcome = { kind: 'error', code: 'twin_failed', candidates: [], message: String(e) };
	}
	return (twin.endedAt = Date.now());
}

interface LaneData {
	txns: AdminTxn[];
	ledger: LedgerEntry[];
	hits: Record<string, number>;
}

const TIMING = {
	/** flip_later delay: the flip lands after the purchase answered successful. */
	flipMs: 150,
	settleShortMs: 120,
	settleLongMs: 900,
	waitForFinalMs: 500,
};

/**
 * One buyer at a time (the twin's raw purchase finishes first): this lane checks adoption of a lone record;
 * shared accounts (the client's default) are bench/chaos-actors.ts's lane. The vendor here creates a record
 * when the POST arrives, except under the long latency fault (the POST of timeout + 0.4 × faultWaitMs, its
 * record made when it ends): the processing bound covers that with a second to spare, and the reconcile
 * wait outlasts the bound, so a purchase that never reached the vendor is proven not charged in its own run.
 */
function laneReconcile(timeoutMs: number, faultWaitMs: number): VtuClientOptions['reconcile'] {
	const maxProcessingMs = timeoutMs + Math.round(faultWaitMs * 0.4) + 1000;
	const waitMs = maxProcessingMs + 500;
	return { waitMs, pollMs: Math.max(50, Math.round(waitMs / 8)), maxPages: 3, sharedAccount: false, maxProcessingMs };
}

/** Arm the intent's one fault: a count:1 rule hit by its POST (and read), a settle mode, or a client-side refusal. */
async function arm(
	x: Intent,
	admin: SandboxAdmin,
	inj: ReturnType<typeof refusingTransport>,
	timeoutMs: number,
	waitMs: number,
): Promise<void> {
	const rule = (f: Omit<FaultInput, 'endpoint'>, method = 'POST') =>
		admin.addFault({ endpoint: `${method} ${PATHS[x.product]}`, count: 1, ...f });
	switch (x.fault) {
		case 'timeout_after':
		case 'reset_after':
		case 'html_after':
		case 'error_before':
			await rule({ kind: x.fault });
			break;
		case 'rate_limit':
			if (x.variant === 'always') await rule({ kind: 'rate_limit', count: 3, retryAfterSeconds: 0 });
			else await rule({ kind: 'rate_limit', retryAfterSeconds: x.variant === 'ra1' ? 1 : 0 });
			break;
		case 'latency':
			// short: answers before the client gives up; long: after the timeout, inside the reconcile wait
			await rule({
				kind: 'latency',
				latencyMs: x.variant === 'short' ? Math.round(timeoutMs * 0.3) : timeoutMs + Math.round(waitMs * 0.4),
			});
			break;
		case 'processing': {
			const [len, final] = x.variant.split('-') as ['short' | 'long', 'successful' | 'failed'];
			await admin.setConfig({
				settle: {
					mode: 'processing',
					delayMs: len === 'short' ? TIMING.settleShortMs : TIMING.settleLongMs,
					finalStatus: final,
				},
			});
			break;
		}
		case 'flip_later':
			await rule({ kind: 'flip_later', latencyMs: TIMING.flipMs });
			break;
		case 'refused':
			inj.arm(x.variant === 'dns' ? 'dns' : 'refused', x.variant === 'always' ? 3 : 1);
			break;
		case 'twin':
			await rule({ kind: x.variant === 'timeout' ? 'timeout_after' : 'html_after' });
			break;
		case 'reconcile_read_error':
			await rule({ kind: 'timeout_after' });
			await rule({ kind: 'error_before' }, 'GET');
			break;
		default:
			break;
	}
}

async function runLane(
	lane: number,
	intents: Intent[],
	o: Required<Omit<ChaosOptions, 'log'>>,
	log: (s: string) => void,
): Promise<LaneData> {
	const sb = await startSandbox({ port: 0, dialect: o.dialect, seed: o.seed * 100 + lane + 1 });
	try {
		const admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
		const { token } = await admin.createUser({ username: 'chaos', balance: '100000000.00' });
		const inj = refusingTransport(createNodeTransport());
		const waitMs = o.timeoutMs;
		const client = new VtuClient({
			baseUrl: sb.baseUrl,
			token,
			transport: inj.transport,
			timeoutMs: o.timeoutMs,
			reconcile: laneReconcile(o.timeoutMs, waitMs),
			retry: { maxAttempts: 3, maxDelayMs: 1500 },
		});
		// patient reads for the other process's purchases (rawPurchase): not under test, so no short timeout
		const other = new VtuClient({ baseUrl: sb.baseUrl, token, transport: createNodeTransport(), timeoutMs: 30_000 });
		await warmCatalog(sb.baseUrl, token);

		let prevEnd = 0;
		const unknown: Unresolved[] = [];
		for (let k = 0; k < intents.length; k++) {
			const x = intents[k];
			if (x.actor === 'other') continue; // a twin: bought while its main purchase hangs, below
			const twin = x.fault === 'twin' ? intents[k - 1] : undefined;
			await arm(x, admin, inj, o.timeoutMs, waitMs);
			// create_date has millisecond precision: start each purchase on a later millisecond than the previous
			// one ended, so "latest same-key intent started before the record" attributes exam pins exactly.
			while (Date.now() <= prevEnd) await sleep(1);
			const recordsBefore = twin ? (await admin.transactions({ username: 'chaos' })).length : 0;
			x.startedAt = Date.now();
			const twinBought =
				twin &&
				buyTwinOnceMainRecorded(
					twin,
					admin,
					recordsBefore,
					() => x.endedAt > 0,
					() => rawPurchase(other, sb.baseUrl, token, twin),
				);
			try {
				const r = await client.buy(x.req, {
					waitForFinal: { timeoutMs: TIMING.waitForFinalMs, intervalMs: 40 },
					retryIfNotCharged: x.retryIfNotCharged,
				});
				x.outcome = { kind: 'result', first: r, final: r };
			} catch (e) {
				if (!(e instanceof VtuError)) throw e;
				const candidates = (e.candidates ?? [])
					.map((c) => (c as { id?: number }).id)
					.filter((id): id is number => typeof id === 'number');
				x.outcome = { kind: 'error', code: e.code, candidates, message: e.message };
				if (e.code === 'unknown_outcome' && x.actor === 'main')
					unknown.push(unresolvedOf(e, { id: String(x.i), req: x.req }, client, x.startedAt, 3000));
			}
			x.endedAt = prevEnd = Date.now();
			if (twinBought) prevEnd = Math.max(prevEnd, await twinBought);
			// disarm
			if (x.fault === 'processing') await admin.setConfig({ settle: { mode: 'immediate', finalStatus: 'successful' } });
			if (x.fault) await admin.clearFaults();
			inj.arm('refused', 0);
		}
		log(`lane ${lane}: ${intents.length} purchases done`);

		// Follow-up, as a careful caller does: flips land TIMING.flipMs after the answer; processing ones settle.
		await sleep(TIMING.flipMs + 100);
		for (const x of intents) {
			if (x.outcome?.kind !== 'result') continue;
			const r = x.outcome.first;
			const c = x.actor === 'other' ? other : client;
			try {
				x.outcome.final =
					r.status === 'processing'
						? await c.transactions.waitForFinal(r, { timeoutMs: 5_000, intervalMs: 50 })
						: await c.transactions.refresh(r);
			} catch (e) {
				x.outcome.followupError = e instanceof VtuError ? `${e.code}: ${e.message}` : String(e);
			}
		}

		// unknown outcomes, resolved the way a user would once the proof is possible
		const byI = new Map(intents.map((x) => [String(x.i), x]));
		for (const o of await resolveUnknowns(unknown, 250)) byI.get(o.id)!.resolved = o;

		const faultLog = await admin.faultLog();
		const hits: Record<string, number> = {};
		for (const f of faultLog) hits[f.kind] = (hits[f.kind] ?? 0) + 1;
		if (inj.hits()) hits.refused = inj.hits();
		return { txns: await admin.transactions({ username: 'chaos' }), ledger: await admin.ledger('chaos'), hits };
	} finally {
		await sb.close();
	}
}

/* ------------------------------------------------------------------ audit --------------- */

const createdMs = (t: AdminTxn) => Date.parse(/Z|[+-]\d\d:?\d\d$/.test(t.created) ? t.created : `${t.created}Z`);

function txnKey(t: AdminTxn): string {
	if (t.product === 'sms') return `sms|${t.recipient.split(',').sort().join(',')}`;
	return `${t.product}|${t.recipient}`;
}

function outcomeLabel(x: Intent): string {
	const o = x.outcome!;
	if (o.kind === 'error') return o.code;
	const a = o.first.status;
	const b = o.final.status;
	return `${a === b ? a : `${a}→${b}`} (${o.first.path})`;
}

interface LaneAudit {
	records: number;
	doubleCharges: number;
	lost: number;
	falseSuccesses: number;
	falseNotCharged: number;
	/** unknown_outcome answers resolved after the run. */
	resolved: number;
	refunds: number;
	refundsMatched: number;
	flips: number;
	flipsDetected: number;
	problems: string[];
}

/** Attribute every record to an intent (the latest same-key intent started before it was created). */
function attribute(intents: Intent[], txns: AdminTxn[], a: LaneAudit): Map<Intent, AdminTxn[]> {
	const byKey = new Map<string, Intent[]>();
	for (const x of intents) {
		const l = byKey.get(x.key) ?? [];
		l.push(x);
		byKey.set(x.key, l);
	}
	const recs = new Map<Intent, AdminTxn[]>();
	for (const t of txns) {
		const cands = byKey.get(txnKey(t));
		if (!cands) {
			a.lost++;
			a.problems.push(`record ${t.product}#${t.id} (${t.recipient}) belongs to no intended purchase`);
			continue;
		}
		const at = createdMs(t);
		let owner: Intent | undefined;
		for (const c of cands) if (c.startedAt <= at && (!owner || c.startedAt >= owner.startedAt)) owner = c;
		owner ??= cands[0]; // none started before it: the audit flags what does not fit
		const l = recs.get(owner) ?? [];
		l.push(t);
		recs.set(owner, l);
	}
	return recs;
}

/** An unknown outcome judged by the last answer of its resolution after the run. */
function judgeLater(
	later: Outcome,
	mine: AdminTxn[],
	charged: AdminTxn[],
	a: LaneAudit,
	tag: string,
	lose: (why: string) => void,
): void {
	if (!later.resolved) {
		// unknown after the run too: its last candidates must hold its records
		const cands = later.kind === 'error' ? later.candidates : [];
		const code = later.kind === 'error' ? later.code : later.status;
		const missing = mine.filter((t) => !cands.includes(t.id));
		if (missing.length)
			lose(
				`still ${code} after the run, candidates [${cands.join(', ')}] miss record(s) ` +
					`${missing.map((t) => t.id).join(', ')}`,
			);
		return;
	}
	a.resolved++;
	if (later.kind === 'result' && !mine.some((t) => t.id === later.record)) {
		a.falseSuccesses++;
		a.problems.push(
			`FALSE SUCCESS ${tag}: resolved to record ${later.record}, not its own (its records: ` +
				`${mine.map((t) => t.id).join(', ') || 'none'})`,
		);
	}
	if (later.kind === 'error' && charged.length) {
		a.falseNotCharged++;
		a.problems.push(
			`FALSE NOT-CHARGED ${tag}: resolved not_charged but its debited record(s) ${charged.map((t) => t.id).join(', ')} ` +
				`exist`,
		);
	}
}

export function auditLane(intents: Intent[], data: LaneData): LaneAudit {
	const a: LaneAudit = {
		records: data.txns.length,
		doubleCharges: 0,
		lost: 0,
		falseSuccesses: 0,
		falseNotCharged: 0,
		resolved: 0,
		refunds: 0,
		refundsMatched: 0,
		flips: 0,
		flipsDetected: 0,
		problems: [],
	};
	const recs = attribute(intents, data.txns, a);
	const lk = (p: string | null, id: number | null) => `${p}|${id}`;
	const debits = new Map<string, number>();
	const refunds = new Map<string, number>();
	for (const e of data.ledger) {
		if (e.kind === 'debit') debits.set(lk(e.product, e.txnId), (debits.get(lk(e.product, e.txnId)) ?? 0) + 1);
		if (e.kind === 'refund') refunds.set(lk(e.product, e.txnId), (refunds.get(lk(e.product, e.txnId)) ?? 0) + 1);
	}

	for (const x of intents) {
		const mine = recs.get(x) ?? [];
		const o = x.outcome!;
		const tag = `#${x.i} ${x.product}${x.fault ? ` [${x.fault}${x.variant ? `:${x.variant}` : ''}]` : ''}`;
		const lose = (why: string) => {
			a.lost++;
			a.problems.push(`LOST ${tag}: ${why}`);
		};
		for (const t of mine) {
			const d = debits.get(lk(t.product, t.id)) ?? 0;
			if (d !== 1) a.problems.push(`${tag}: record ${t.id} has ${d} debits`);
		}
		const charged = mine.filter((t) => (debits.get(lk(t.product, t.id)) ?? 0) > 0);
		if (charged.length > 1) {
			a.doubleCharges++;
			a.problems.push(`DOUBLE ${tag}: records ${charged.map((t) => t.id).join(', ')} (${outcomeLabel(x)})`);
		}
		if (x.resolved) judgeLater(x.resolved, mine, charged, a, tag, lose);
		else if (o.kind === 'error') {
			if (o.code === 'unknown_outcome') {
				const missing = mine.filter((t) => !o.candidates.includes(t.id));
				if (missing.length)
					lose(
						`unknown_outcome but its candidates [${o.candidates.join(', ')}] miss record(s) ` +
							`${missing.map((t) => t.id).join(', ')}`,
					);
			} else if (o.code === 'not_charged' && charged.length) {
				a.falseNotCharged++;
				a.problems.push(
					`FALSE NOT-CHARGED ${tag}: not_charged but record(s) ${charged.map((t) => `${t.id}:${t.Status}`).join(', ')} ` +
						`exist (${o.message.slice(0, 120)})`,
				);
			} else if (mine.length) {
				lose(
					`reported ${o.code} but record(s) ${mine.map((t) => `${t.id}:${t.Status}`).join(', ')} exist ` +
						`(${o.message.slice(0, 120)})`,
				);
			}
		} else {
			const r = o.final;
			const rec = mine.find((t) => t.id === o.first.id);
			if (o.first.id === null) lose(`result without a record id (${mine.length} record(s) on the server)`);
			else if (!rec) {
				a.falseSuccesses++;
				a.problems.push(
					`FALSE SUCCESS ${tag}: result names record ${o.first.id}, which is not this purchase's (its records: ` +
						`${mine.map((t) => t.id).join(', ') || 'none'})`,
				);
			} else if (rec.Status !== r.status)
				lose(
					`client's final status ${r.status} ≠ server's ` +
						`${rec.Status}${o.followupError ? ` (follow-up failed: ${o.followupError.slice(0, 100)})` : ''}`,
				);
			if (x.fault === 'flip_later' && o.first.status === 'successful') {
				a.flips++;
				if (r.status === 'failed' && r.details.refunded === true) a.flipsDetected++;
				else a.problems.push(`${tag}: flip not detected (final ${r.status})`);
			}
		}
		// refunds: exactly one per failed record, none otherwise; the client must know it failed
		for (const t of mine) {
			const n = refunds.get(lk(t.product, t.id)) ?? 0;
			if (t.Status === 'failed') {
				a.refunds++;
				const clientKnows =
					o.kind === 'result'
						? o.final.id === t.id && o.final.status === 'failed'
						: o.code === 'unknown_outcome' && o.candidates.includes(t.id);
				if (n === 1 && clientKnows) a.refundsMatched++;
				else a.problems.push(`${tag}: failed record ${t.id} has ${n} refund(s), client view ${outcomeLabel(x)}`);
			} else if (n) a.problems.push(`${tag}: ${t.Status} record ${t.id} has ${n} refund(s)`);
		}
	}
	return a;
}

/* ------------------------------------------------------------------ run ----------------- */

export async function runChaos(opts: ChaosOptions = {}): Promise<ChaosReport> {
	const o = {
		purchases: opts.purchases ?? 1000,
		seed: opts.seed ?? 7,
		dialect: opts.dialect ?? 'seed',
		concurrency: Math.max(1, opts.concurrency ?? 8),
		faultRate: opts.faultRate ?? 0.2,
		timeoutMs: opts.timeoutMs ?? 400,
	} as Required<Omit<ChaosOptions, 'log'>>;
	const log = opts.log ?? (() => undefined);
	const t0 = Date.now();
	const intents = makeIntents(o.purchases, o.seed, o.concurrency, o.faultRate);
	const lanes = Array.from({ length: o.concurrency }, (_, l) => intents.filter((x) => x.lane === l));
	const datas = await Promise.all(lanes.map((l, i) => runLane(i, l, o, log)));

	const report: ChaosReport = {
		seed: o.seed,
		dialect: o.dialect,
		lanes: o.concurrency,
		purchases: o.purchases,
		faults: 0,
		faultsByKind: {},
		faultHits: {},
		products: {},
		outcomes: {},
		outcomesByFault: {},
		records: 0,
		doubleCharges: 0,
		lost: 0,
		falseSuccesses: 0,
		falseNotCharged: 0,
		resolved: 0,
		refunds: 0,
		refundsMatched: 0,
		flips: 0,
		flipsDetected: 0,
		unknownOutcomes: 0,
		problems: [],
		durationMs: 0,
		table: '',
		lastLine: '',
		intents,
	};
	for (const k of FAULT_KINDS) report.faultsByKind[k] = 0;
	for (const p of PRODUCTS) report.products[p] = 0;
	for (const x of intents) {
		report.products[x.product]++;
		if (x.fault) {
			report.faults++;
			report.faultsByKind[x.fault]++;
		}
		const label = outcomeLabel(x);
		report.outcomes[label] = (report.outcomes[label] ?? 0) + 1;
		const f = (report.outcomesByFault[x.fault ? `${x.fault}${x.variant ? `:${x.variant}` : ''}` : 'none'] ??= {});
		f[label] = (f[label] ?? 0) + 1;
		if (x.outcome?.kind === 'error' && x.outcome.code === 'unknown_outcome') report.unknownOutcomes++;
	}
	lanes.forEach((l, i) => {
		const a = auditLane(l, datas[i]);
		report.records += a.records;
		report.doubleCharges += a.doubleCharges;
		report.lost += a.lost;
		report.falseSuccesses += a.falseSuccesses;
		report.falseNotCharged += a.falseNotCharged;
		report.resolved += a.resolved;
		report.refunds += a.refunds;
		report.refundsMatched += a.refundsMatched;
		report.flips += a.flips;
		report.flipsDetected += a.flipsDetected;
		report.problems.push(...a.problems.map((p) => `lane ${i}: ${p}`));
		for (const [k, v] of Object.entries(datas[i].hits)) report.faultHits[k] = (report.faultHits[k] ?? 0) + v;
	});
	const sorted = <T>(o: Record<string, T>) =>
		Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
	report.outcomes = sorted(report.outcomes);
	report.outcomesByFault = sorted(report.outcomesByFault);
	for (const k of Object.keys(report.outcomesByFault)) report.outcomesByFault[k] = sorted(report.outcomesByFault[k]);
	report.durationMs = Date.now() - t0;
	report.lastLine = summaryLine(report);
	report.table = formatTable(report);
	return report;
}

export function formatTable(r: ChaosReport): string {
	const L: string[] = [];
	const row = (a: string, b: string | number, c = '') =>
		L.push(`  ${a.padEnd(34)} ${String(b).padStart(6)}${c ? `  ${c}` : ''}`);
	L.push(
		`chaos run: seed ${r.seed}, ${r.dialect} dialect, ${r.purchases} purchases in ${r.lanes} lane(s), ` +
			`${(r.durationMs / 1000).toFixed(1)} s`,
	);
	L.push('');
	L.push(`Products`);
	for (const [k, v] of Object.entries(r.products)) row(k, v);
	L.push('');
	L.push(`Faults injected                     intents  (applications logged)`);
	for (const [k, v] of Object.entries(r.faultsByKind)) {
		const hitKey = k === 'reconcile_read_error' ? '' : k === 'processing' ? '' : k;
		row(k, v, hitKey && r.faultHits[hitKey] !== undefined ? `(${r.faultHits[hitKey]})` : '');
	}
	row('total', r.faults, `(${((100 * r.faults) / Math.max(1, r.purchases)).toFixed(1)}% of purchases)`);
	L.push('');
	L.push(`Outcomes (first status→final status (path), or error code)`);
	for (const [k, v] of Object.entries(r.outcomes)) row(k, v);
	L.push('');
	L.push(`Outcomes per fault`);
	for (const [k, v] of Object.entries(r.outcomesByFault)) {
		if (k === 'none') continue;
		L.push(
			`  ${k.padEnd(34)} ${Object.entries(v)
				.map(([o, n]) => `${n} ${o}`)
				.join(', ')}`,
		);
	}
	L.push('');
	L.push(`Audit (sandbox ledger + transactions)`);
	row('records on the server', r.records);
	row('unknown_outcome (with candidates)', r.unknownOutcomes);
	row('refunds matched', `${r.refundsMatched}/${r.refunds}`);
	row('successful→failed flips detected', `${r.flipsDetected}/${r.flips}`);
	row('double charges (must be 0)', r.doubleCharges);
	row('lost (must be 0)', r.lost);
	row('false successes (must be 0)', r.falseSuccesses);
	row('false not-charged (must be 0)', r.falseNotCharged);
	row('unknown_outcome resolved later', `${r.resolved}/${r.unknownOutcomes}`);
	if (r.problems.length) {
		L.push('');
		L.push(`Problems (${r.problems.length})`);
		for (const p of r.problems.slice(0, 40)) L.push(`  ${p}`);
		if (r.problems.length > 40) L.push(`  … ${r.problems.length - 40} more`);
	}
	return L.join('\n');
}

/**
 * --slow <share> (of the actors' purchases; default range 4–12 s, so a run takes minutes), --slow-range
 * <min>-<max> in seconds, --slow-real: the real 40–120 s. The clients' maxProcessingMs follows the range.
 */
function slowOption(
	share: string | undefined,
	range: string | undefined,
	real: boolean,
): { share: number; minMs: number; maxMs: number } | undefined {
	if (share === undefined) return undefined;
	const sh = Number(share);
	if (!(sh >= 0 && sh <= 1)) throw new Error(`--slow must be a share of purchases between 0 and 1, got ${share}`);
	const m = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(range ?? (real ? '40-120' : '4-12'));
	if (!m || Number(m[1]) > Number(m[2]))
		throw new Error(`--slow-range must be <min>-<max> seconds like 4-12, got ${range}`);
	return { share: sh, minMs: Number(m[1]) * 1000, maxMs: Number(m[2]) * 1000 };
}

/** --storefront: bench/chaos-storefront.ts (customers, payments and orders across storefront instances). */
async function storefrontCli(v: Record<string, string | boolean | undefined>): Promise<void> {
	const n = (name: string, d: string) => {
		const x = Number(v[name] ?? d);
		if (!Number.isFinite(x) || x < 0) throw new Error(`--${name} must be a number ≥ 0, got ${String(v[name])}`);
		return x;
	};
	const b = String(v.backend ?? 'both');
	if (!['both', 'postgres', 'sqlite'].includes(b))
		throw new Error(`--backend must be both, postgres or sqlite, got ${b}`);
	// the default drives real bot instances (bench/chaos-storefront-bots.ts); --store-layer drives the store
	// directly (bench/chaos-storefront.ts), which also has --crash
	const storeLayer = v['store-layer'] === true;
	if (v.crash === true && !storeLayer) throw new Error('--crash runs in the store-layer lane: add --store-layer');
	const run = storeLayer ? runStorefrontChaos : runBotStorefrontChaos;
	const runs = await run({
		seed: Math.floor(n('seed', '7')),
		customers: Math.max(1, Math.floor(n('customers', '12'))),
		orders: Math.max(1, Math.floor(n('orders', '4'))),
		faultRate: Math.min(1, n('fault-rate', '0.2')),
		crash: v.crash === true,
		backends: b === 'both' ? ['postgres', 'sqlite'] : [b as 'postgres' | 'sqlite'],
		log: v.verbose ? (s) => process.stderr.write(`${s}\n`) : undefined,
	});
	const { line, ok } = lastLine(runs);
	process.stdout.write(`${formatRuns(runs)}\n\n${line}\n`);
	process.exitCode = ok ? 0 : 1;
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			purchases: { type: 'string' },
			actors: { type: 'string' },
			'bot-orders': { type: 'string', default: '10' },
			'bot-instances': { type: 'string', default: '1' },
			'bot-token-shared': { type: 'string' },
			'bot-customer-ref': { type: 'string' },
			seed: { type: 'string', default: '7' },
			dialect: { type: 'string', default: 'seed' },
			concurrency: { type: 'string', default: '8' },
			'fault-rate': { type: 'string', default: '0.2' },
			'timeout-ms': { type: 'string' },
			busy: { type: 'string' },
			slow: { type: 'string' },
			'slow-range': { type: 'string' },
			'slow-real': { type: 'boolean', default: false },
			'max-processing-ms': { type: 'string' },
			verbose: { type: 'boolean', default: false },
			storefront: { type: 'boolean', default: false },
			crash: { type: 'boolean', default: false },
			'store-layer': { type: 'boolean', default: false },
			customers: { type: 'string' },
			orders: { type: 'string' },
			backend: { type: 'string' },
		},
	});
	if (values.storefront) return storefrontCli(values);
	const dialect = values.dialect === 'family' ? 'family' : values.dialect === 'seed' ? 'seed' : null;
	if (!dialect) throw new Error(`--dialect must be seed or family, got ${values.dialect}`);
	const num = (name: string, v: string | undefined, min: number) => {
		const n = Number(v);
		if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}, got ${v}`);
		return n;
	};
	const flag = (name: string, v: string | undefined): boolean | undefined => {
		if (v === undefined) return undefined;
		if (v === 'true' || v === 'false') return v === 'true';
		throw new Error(`--${name} must be true or false, got ${v}`);
	};
	if (values.actors === undefined && (values.busy !== undefined || values.slow !== undefined)) {
		throw new Error(
			'--busy and --slow run in the multi-actor lane: add --actors <n> (one shared account, as a busy merchant has)',
		);
	}
	if (values.actors !== undefined) {
		// multi-actor lane (bench/chaos-actors.ts): actors in child processes + the bot, killed and restarted
		const slow = slowOption(values.slow, values['slow-range'], values['slow-real'] ?? false);
		const r = await runActors({
			dialect,
			busy: values.busy === undefined ? 0 : num('busy', values.busy, 0),
			slow,
			maxProcessingMs:
				values['max-processing-ms'] === undefined
					? undefined
					: num('max-processing-ms', values['max-processing-ms'], 0),
			actors: Math.floor(num('actors', values.actors, 1)),
			purchases: Math.floor(num('purchases', values.purchases ?? '40', 1)),
			botOrders: Math.floor(num('bot-orders', values['bot-orders'], 0)),
			botInstances: Math.floor(num('bot-instances', values['bot-instances'], 1)),
			botTokenShared: flag('bot-token-shared', values['bot-token-shared']),
			botCustomerRef: flag('bot-customer-ref', values['bot-customer-ref']),
			seed: Math.floor(num('seed', values.seed, 0)),
			faultRate: num('fault-rate', values['fault-rate'], 0),
			timeoutMs: num('timeout-ms', values['timeout-ms'] ?? '2000', 50),
			log: values.verbose ? (s) => process.stderr.write(`${s}\n`) : undefined,
		});
		process.stdout.write(`${formatActors(r)}\n\n${r.lastLine}\n`);
		process.exitCode = r.doubleCharges || r.lost || r.falseSuccesses || r.falseNotCharged ? 1 : 0;
		return;
	}
	const report = await runChaos({
		purchases: Math.floor(num('purchases', values.purchases ?? '1000', 1)),
		seed: Math.floor(num('seed', values.seed, 0)),
		dialect,
		concurrency: Math.floor(num('concurrency', values.concurrency, 1)),
		faultRate: num('fault-rate', values['fault-rate'], 0),
		timeoutMs: num('timeout-ms', values['timeout-ms'] ?? '400', 50),
		log: values.verbose ? (s) => process.stderr.write(`${s}\n`) : undefined,
	});
	process.stdout.write(`${report.table}\n\n${report.lastLine}\n`);
	process.exitCode = report.doubleCharges || report.lost || report.falseSuccesses || report.falseNotCharged ? 1 : 0;
}

if (require.main === module) {
	main().catch((e) => {
		process.stderr.write(`chaos: ${e instanceof Error ? e.stack : String(e)}\n`);
		process.exit(2);
	});
}
