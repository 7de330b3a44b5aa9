import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type IPairedItemData,
	type NodeApiError,
} from 'n8n-workflow';

import {
	nairaText,
	parseNaira,
	type BuyOptions,
	type PurchaseRequest,
	type PurchaseResult,
	type VtuClient,
} from '../../client/core';
import { canCheckExisting, findExisting } from '../../client/existing';
import { NOT_CHARGED_CODES } from '../../client/errors';
import type { PurchaseQuote } from '../../client/types';
import type { ClientOptions } from './client';
import { getClient, getVtuCredentials } from './client';
import { LOCKED_OPTIONS } from './descriptions';
import { errorJson, refuse, toNodeError } from './errors';
import {
	AdaptiveLimit,
	DEFAULT_CONCURRENCY,
	MAX_CONCURRENCY,
	MAX_REQUEUES,
	runAdaptive,
	START_CONCURRENCY,
	type Outcome,
} from './concurrency';
import { beginRun, endRun, paceKey, rememberPace } from './paceMemory';
import { retryMemory, spendLedger, type RetryMemory, type SpendLedger } from './execution';
import { quoteJson, resultJson } from './format';
import { customerRefOf, resolveUnclear, unclearFacts } from './unclear';
import { dryRunOutput, existingJson, type DryRunFacts } from './dryRun';
import { rowsWord, stopReport, type BoughtRow } from './stopReport';

export interface PurchaseRunOptions {
	waitForFinal: boolean;
	waitTimeoutSeconds: number;
	/** The most purchases in flight (the Concurrency option, else DEFAULT_CONCURRENCY). */
	concurrency: number;
	/**
	 * The builder set Concurrency (they know the site): the pace starts there. Otherwise it starts at
	 * START_CONCURRENCY or at the pace learned from the last run to the same site (paceMemory.ts).
	 */
	concurrencySet: boolean;
	dryRun: boolean;
	/** Dry run: one item per row after the summary. */
	dryRunDetail: boolean;
	/** Kobo; 0 = no cap. */
	spendCapKobo: number;
	retryIfNotCharged: boolean;
	/** Skip items already bought within this many minutes (0 = only in retried executions). */
	skipIfBoughtWithinMinutes: number;
}

/**
 * How far back a retried execution looks for items it already bought when the option is not set: n8n
 * does not tell a node when the failed execution ran, and most retries follow within the day.
 */
export const RETRY_LOOKBACK_MINUTES = 24 * 60;

export { DEFAULT_CONCURRENCY, MAX_CONCURRENCY };

/**
 * Refuse a limit an AI agent could fill: the fields take no expression in the editor, but a workflow's JSON
 * can still carry `$fromAI(...)` in one (n8n evaluates it anyway).
 */
function refuseModelFilledLimits(ctx: IExecuteFunctions): void {
	const raw = (ctx.getNode().parameters?.options ?? {}) as IDataObject;
	for (const name of LOCKED_OPTIONS) {
		const v = raw[name];
		if (typeof v === 'string' && /\$fromai\s*\(/i.test(v)) {
			throw refuse(
				'invalid_input',
				`The option "${OPTION_LABELS[name] ?? name}" is filled by the AI model ($fromAI); ` +
					'limits like this one must be fixed by the workflow',
				"Open the node's Options and type a fixed value.",
			);
		}
	}
}

const OPTION_LABELS: Record<string, string> = {
	concurrency: 'Concurrency',
	dryRun: 'Dry Run',
	dryRunDetail: 'Dry Run Detail Per Row',
	retryIfNotCharged: 'Retry If Not Charged',
	skipIfBoughtWithinMinutes: 'Skip If Already Bought Within (Minutes)',
	spendCap: 'Spend Cap (₦)',
	waitForFinal: 'Wait for Final Status',
	waitTimeout: 'Wait Timeout (Seconds)',
	validateFirst: 'Validate First',
	batchSize: 'Batch Size',
	oncePerNumber: 'Text Each Number Once',
	sendRate: 'Send Rate (Messages per Second)',
	sendWindowStart: 'Send Window Start',
	sendWindowEnd: 'Send Window End',
};

export function readPurchaseOptions(ctx: IExecuteFunctions): PurchaseRunOptions {
	refuseModelFilledLimits(ctx);
	const o = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const concurrency = Math.min(
		MAX_CONCURRENCY,
		Math.max(1, Math.floor(Number(o.concurrency ?? DEFAULT_CONCURRENCY) || DEFAULT_CONCURRENCY)),
	);
	const capRaw = o.spendCap ?? 0;
	let spendCapKobo: number;
	try {
		spendCapKobo = capRaw === '' || capRaw === null ? 0 : parseNaira(capRaw, 'Spend Cap');
	} catch {
		throw refuse(
			'invalid_input',
			`The Spend Cap "${String(capRaw)}" is not an amount in naira`,
			'Enter a number such as 5000 or 2500.50, or 0 for no cap.',
		);
	}
	return {
		waitForFinal: o.waitForFinal === true,
		waitTimeoutSeconds: Math.max(1, Number(o.waitTimeout ?? 120) || 120),
		concurrency,
		concurrencySet: o.concurrency !== undefined,
		dryRun: o.dryRun === true,
		dryRunDetail: o.dryRunDetail === true,
		spendCapKobo,
		retryIfNotCharged: o.retryIfNotCharged === true,
		skipIfBoughtWithinMinutes: Math.max(0, Number(o.skipIfBoughtWithinMinutes ?? 0) || 0),
	};
}

/** Run `fn` over `indices` with at most `limit` in flight; stops starting new work when told. */
export async function runPool(
	indices: number[],
	limit: number,
	fn: (index: number) => Promise<void>,
	shouldStop: () => boolean = () => false,
): Promise<void> {
	// `limit` workers take the next index in turn (no p-limit: n8n 1.x does not provide it to
	// community packages, and a verified package has no dependencies of its own)
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < indices.length && !shouldStop()) await fn(indices[next++]);
	};
	await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), indices.length) }, worker));
}

export interface PurchaseHooks<R> {
	/** Client settings (e.g. SMS batch size); default: the execution's shared client. */
	clientOptions?: ClientOptions;
	/** Number of purchases (default: one per input item). */
	count?: number;
	/** pairedItem of purchase i (default: input item i). */
	paired?: (index: number) => IPairedItemData | IPairedItemData[];
	/** Build the request of item i from its parameters; throw to refuse the item. */
	build: (itemIndex: number) => Promise<R> | R;
	/** Price the request without sending it. Default: `client.quote(req)`. */
	quote?: (client: VtuClient, req: R, itemIndex: number) => Promise<{ kobo: number; json: IDataObject }>;
	/** Spend. Default: `client.buy(req, opts)` as one output item. */
	execute?: (
		client: VtuClient,
		req: R,
		opts: BuyOptions,
		itemIndex: number,
	) => Promise<{ items: INodeExecutionData[]; chargedKobo: number | null }>;
}

function defaultQuote(client: VtuClient, req: unknown): Promise<{ kobo: number; json: IDataObject }> {
	return client.quote(req as PurchaseRequest).then((q: PurchaseQuote) => ({
		kobo: q.amount.kobo,
		json: quoteJson(q),
	}));
}

async function defaultExecute(
	client: VtuClient,
	req: unknown,
	opts: BuyOptions,
): Promise<{ items: INodeExecutionData[]; chargedKobo: number | null }> {
	const r = await client.buy(req as PurchaseRequest, opts);
	return {
		items: [{ json: resultJson(r) }],
		chargedKobo: r.status === 'failed' ? 0 : r.amount.kobo,
	};
}

/** What one run of a purchase node holds while it goes through its phases. */
interface Run<R> {
	ctx: IExecuteFunctions;
	node: INode;
	hooks: PurchaseHooks<R>;
	count: number;
	paired: (index: number) => IPairedItemData | IPairedItemData[];
	continueOnFail: boolean;
	opts: PurchaseRunOptions;
	client: VtuClient;
	/** The vendor's processing bound (credential), for an unclear row's resolvableAfter. */
	processingMs: number;
	/** The pace memory's key: the credential's base URL origin (never the token). */
	paceKey: string | undefined;
	requests: Array<R | undefined>;
	/** Each row's output item(s), in input order. */
	outputs: Array<INodeExecutionData[] | undefined>;
	/** Rows refused before anything was sent for them, with why. */
	bad: Map<number, unknown>;
	/** Rows sent (or recalled from an earlier try) that failed or are unclear, with why. */
	failed: Map<number, unknown>;
	/** Rows still to buy. */
	pending: number[];
	prices: Map<number, { kobo: number; json: IDataObject }>;
	existing: Map<number, PurchaseResult>;
	ledger: SpendLedger | undefined;
	memory: RetryMemory;
}

/**
 * The one per-item runner of every purchase node: builds, checks and prices every item first (nothing is
 * sent while one is bad and Continue On Fail is off: the error then lists every bad row), answers a Dry Run,
 * holds the Spend Cap, then buys with an adaptive pace. Output: one entry per input item (several for
 * multi-item results) in input order, each with pairedItem; failed rows are `{ error, code, … }` under
 * Continue On Fail (inside `error` on the error output). A run stopped by a failure throws an error that
 * accounts for every row: bought (do not buy again), failed, unclear, not sent.
 */
export async function runPurchases<R>(ctx: IExecuteFunctions, hooks: PurchaseHooks<R>): Promise<INodeExecutionData[]> {
	const run = await startRun(ctx, hooks);
	await buildAll(run);
	if (!run.opts.dryRun) await recallTries(run);
	await priceAll(run);
	const since = existingSince(ctx, run.opts);
	if (since !== null) await skipExisting(run, since);
	if (run.opts.dryRun) return dryRunOutput(run.client, dryRunFacts(run, since !== null));
	if (run.ledger) reserveSpend(run, run.ledger);
	if (!run.continueOnFail && (run.bad.size > 0 || run.failed.size > 0)) {
		releaseUnsent(run, new Set());
		throw stoppedError(run);
	}
	for (const [i, r] of run.existing) run.outputs[i] = [{ json: existingJson(r), pairedItem: run.paired(i) }];
	const started = await buyAll(run);
	releaseUnsent(run, started);
	if (!run.continueOnFail && run.failed.size > 0) throw stoppedError(run, started);
	const result = collect(run.outputs);
	// n8n retries a run whose first item is an error (Continue On Fail) or that threw; this one is final
	if (result[0]?.json.error === undefined) run.memory.forget();
	hintFailedRows(ctx, result, run.count);
	return result;
}

async function startRun<R>(ctx: IExecuteFunctions, hooks: PurchaseHooks<R>): Promise<Run<R>> {
	const node = ctx.getNode();
	let opts: PurchaseRunOptions;
	try {
		opts = readPurchaseOptions(ctx);
	} catch (error) {
		throw toNodeError(node, error);
	}
	const client = await getClient(ctx, hooks.clientOptions);
	const count = hooks.count ?? ctx.getInputData().length;
	const creds = await getVtuCredentials(ctx);
	return {
		ctx,
		node,
		hooks,
		count,
		paired: hooks.paired ?? ((i: number) => ({ item: i })),
		continueOnFail: ctx.continueOnFail(),
		opts,
		client,
		processingMs: creds.processingMs,
		paceKey: paceKey(creds.baseUrl),
		requests: new Array(count),
		outputs: new Array(count),
		bad: new Map(),
		failed: new Map(),
		pending: [],
		prices: new Map(),
		existing: new Map(),
		ledger: opts.spendCapKobo > 0 ? spendLedger(ctx) : undefined,
		memory: retryMemory(ctx),
	};
}

/** A row refused before anything was sent for it (kept as its output for Continue On Fail and Dry Run). */
function refuseRow<R>(run: Run<R>, i: number, error: unknown): void {
	run.bad.set(i, error);
	run.outputs[i] = [failedItem(run.node, errorJson(error, i), run.paired(i))];
}

/** A row that failed after it was sent: not charged (proven), or unclear with what resolving it needs. */
function failRow<R>(run: Run<R>, i: number, error: unknown, sentAt: string, notCharged: boolean): void {
	run.failed.set(i, error);
	const json = errorJson(error, i);
	if (!notCharged) {
		const known = { request: run.requests[i], sentAt, processingMs: run.processingMs };
		Object.assign(json, unclearFacts(error, known));
	}
	run.outputs[i] = [failedItem(run.node, json, run.paired(i))];
}

/** 1. Read every item's parameters before anything is sent. */
async function buildAll<R>(run: Run<R>): Promise<void> {
	for (let i = 0; i < run.count; i++) {
		try {
			run.requests[i] = await run.hooks.build(i);
			run.pending.push(i);
		} catch (error) {
			refuseRow(run, i, error);
		}
	}
}

/**
 * n8n's Retry On Fail re-runs this node in the same execution: what an earlier try bought is given back, an
 * unclear one is looked up again (never re-sent), and only the rest goes on.
 */
async function recallTries<R>(run: Run<R>): Promise<void> {
	const done = await recallEarlierTries(
		run.client,
		run.memory,
		run.ledger,
		run.pending.map((i) => [i, run.requests[i]]),
		(i, out) => {
			if (out instanceof Array) run.outputs[i] = out.map((o) => ({ ...o, pairedItem: run.paired(i) }));
			else failRow(run, i, out.error, out.sentAt, false);
		},
	);
	run.pending = run.pending.filter((i) => !done.has(i));
}

/**
 * 2. Check and price every item with the client's quote (local rules + cached catalogue), still without
 * sending: Dry Run and Spend Cap use the prices; every bad row is found, not just the first.
 */
async function priceAll<R>(run: Run<R>): Promise<void> {
	const quote = run.hooks.quote ?? (defaultQuote as NonNullable<PurchaseHooks<R>['quote']>);
	await runPool(run.pending, Math.min(run.opts.concurrency, START_CONCURRENCY), async (i) => {
		try {
			run.prices.set(i, await quote(run.client, run.requests[i] as R, i));
		} catch (error) {
			refuseRow(run, i, error);
		}
	});
	run.pending = run.pending.filter((i) => run.prices.has(i));
}

/**
 * 3. Retried execution (or the Skip If Already Bought option): items the account's records already answer
 * are not bought again; an item whose records could not be read is not bought blindly.
 */
async function skipExisting<R>(run: Run<R>, since: number): Promise<void> {
	const checkable = new Map<number, PurchaseRequest>();
	for (const i of run.pending)
		if (canCheckExisting(run.requests[i])) checkable.set(i, run.requests[i] as PurchaseRequest);
	const { found, unchecked } = await findExisting(run.client, checkable, since, (n, read) =>
		runPool([...Array(n).keys()], Math.min(run.opts.concurrency, START_CONCURRENCY), read),
	);
	for (const [i, r] of found) run.existing.set(i, r);
	for (const i of [...unchecked.keys()].sort((a, b) => a - b)) refuseRow(run, i, unchecked.get(i));
	run.pending = run.pending.filter((i) => !run.existing.has(i) && !unchecked.has(i));
}

function dryRunFacts<R>(run: Run<R>, looked: boolean): DryRunFacts {
	return {
		count: run.count,
		pending: run.pending,
		prices: run.prices,
		existing: run.existing,
		bad: run.bad,
		opts: run.opts,
		paired: run.paired,
		outputs: run.outputs,
		spentKobo: run.ledger ? run.ledger.get() : 0,
		detail: run.opts.dryRunDetail,
		looked,
	};
}

/** 4. Spend Cap: reserve each item's price in input order; refuse what would go over. */
function reserveSpend<R>(run: Run<R>, ledger: SpendLedger): void {
	const cap = run.opts.spendCapKobo;
	const allowed: number[] = [];
	for (const i of run.pending) {
		const price = run.prices.get(i)!.kobo;
		const after = ledger.get() + price;
		if (after > cap) {
			const message =
				`Not bought: this row costs ${nairaText(price)} and would take this execution's spending to ` +
				`${nairaText(after)}, over the Spend Cap of ${nairaText(cap)}. Nothing was sent for it`;
			refuseRow(run, i, refuse('spend_cap', message));
			continue;
		}
		ledger.add(price);
		allowed.push(i);
	}
	run.pending = allowed;
}

/** Rows a stop left unsent give their Spend Cap reservation back (a retry reserves them again). */
function releaseUnsent<R>(run: Run<R>, started: Set<number>): void {
	if (!run.ledger) return;
	for (const i of run.pending) if (!started.has(i)) run.ledger.add(-(run.prices.get(i)?.kobo ?? 0));
}

/**
 * 5. Buy at an adaptive pace under the Concurrency ceiling; results stay in input order. Without Continue
 * On Fail the first failure stops new sends (purchases in flight finish and are accounted for).
 * Returns the rows that were sent.
 */
async function buyAll<R>(run: Run<R>): Promise<Set<number>> {
	const buyOpts: BuyOptions = {};
	if (run.opts.waitForFinal) buyOpts.waitForFinal = { timeoutMs: run.opts.waitTimeoutSeconds * 1000 };
	if (run.opts.retryIfNotCharged) buyOpts.retryIfNotCharged = true;
	const execute = run.hooks.execute ?? (defaultExecute as NonNullable<PurchaseHooks<R>['execute']>);
	const started = new Set<number>();
	const pace = new AdaptiveLimit(run.opts.concurrency, startingPace(run));
	const buyOne = async (i: number, attempt: number): Promise<Outcome> => {
		started.add(i);
		const reserved = run.prices.get(i)?.kobo ?? 0;
		// a lower bound of when it left (what reconciliation needs to look back far enough)
		const sentAt = new Date().toISOString();
		try {
			const { items: out, chargedKobo } = await execute(run.client, run.requests[i] as R, { ...buyOpts }, i);
			if (run.ledger && chargedKobo !== null) run.ledger.add(chargedKobo - reserved);
			run.outputs[i] = out.map((o) => ({ ...o, pairedItem: run.paired(i) }));
			const memo = { kind: 'bought' as const, items: out, chargedKobo, reservedKobo: chargedKobo ?? reserved };
			run.memory.set(i, run.requests[i], memo);
			// waiting for the final status makes the time the vendor's settling, not how busy the site is
			return { kind: 'clean', untimed: run.opts.waitForFinal };
		} catch (error) {
			const refused = refusedFor(error, attempt);
			if (refused) {
				// the site did nothing: the item waits and goes again (a stop meanwhile leaves it unsent)
				started.delete(i);
				return refused;
			}
			const code = (error as { code?: string }).code;
			const notCharged = code !== undefined && NOT_CHARGED_CODES.has(code);
			if (run.ledger && notCharged) run.ledger.add(-reserved);
			if (!notCharged) run.memory.set(i, run.requests[i], { kind: 'unclear', error, sentAt, reservedKobo: reserved });
			failRow(run, i, error, sentAt, notCharged);
			return { kind: code !== undefined && STRAIN_CODES.has(code) ? 'strained' : 'clean' };
		}
	};
	try {
		await runAdaptive(run.pending, pace, buyOne, () => !run.continueOnFail && run.failed.size > 0);
		rememberPace(run.paceKey, pace);
	} finally {
		if (!run.opts.concurrencySet) endRun(run.paceKey);
	}
	return started;
}

/**
 * Where the pace starts: the Concurrency the builder set; else what the last run to the same site reached
 * cleanly (within the memory's time, shared with the runs going to it at the same time: beginRun), never above
 * the ceiling nor the run's size; else START_CONCURRENCY.
 */
function startingPace<R>(run: Run<R>): number {
	if (run.opts.concurrencySet) return run.opts.concurrency;
	const cold = Math.min(run.opts.concurrency, START_CONCURRENCY);
	const learned = beginRun(run.paceKey, cold);
	if (learned === undefined) return cold;
	return Math.max(1, Math.min(run.opts.concurrency, learned, run.pending.length));
}

/**
 * The error of a run stopped without Continue On Fail. One row refused and nothing else done: that row's
 * own error. Otherwise one error that accounts for every row, so rows already bought are never lost in the
 * throw: bought (do not buy again), failed, unclear (check later), not sent.
 */
function stoppedError<R>(run: Run<R>, started?: Set<number>): NodeApiError | NodeOperationError {
	const problems = [...run.bad.keys(), ...run.failed.keys()].sort((a, b) => a - b);
	const first = problems[0];
	const firstError = run.bad.get(first) ?? run.failed.get(first);
	const bought = boughtRows(run);
	const unclear = [...run.failed.keys()].filter((i) => !isNotCharged(run.failed.get(i)));
	if (problems.length === 1 && bought.length === 0 && unclear.length === 0) {
		return toNodeError(run.node, firstError, first);
	}
	const notSent = run.pending.filter((i) => !started?.has(i));
	const report = stopReport({
		rows: run.count,
		bought,
		refused: [...run.bad.entries()],
		failed: [...run.failed.entries()],
		notSent,
		reason: (e, i) => String(errorJson(e, i).error),
		unclear: (e) => !isNotCharged(e),
	});
	return new NodeOperationError(run.node, report.message, { itemIndex: first, description: report.description });
}

function isNotCharged(error: unknown): boolean {
	const code = (error as { code?: string } | undefined)?.code;
	return code !== undefined && NOT_CHARGED_CODES.has(code);
}

/** Rows whose output is a purchase (bought now, by an earlier try, or found already bought). */
function boughtRows<R>(run: Run<R>): BoughtRow[] {
	const rows: BoughtRow[] = [];
	run.outputs.forEach((out, i) => {
		if (!out || out.length === 0 || run.bad.has(i) || run.failed.has(i)) return;
		const json = out[0].json;
		rows.push({
			row: i + 1,
			reference: typeof json.ident === 'string' ? json.ident : undefined,
			// a recharge card order's first item is a card: the order's amount is orderAmount
			amountKobo: amountKobo(json.amount ?? json.orderAmount),
		});
	});
	return rows;
}

function amountKobo(v: unknown): number {
	try {
		return typeof v === 'string' || typeof v === 'number' ? parseNaira(v, 'amount') : 0;
	} catch {
		return 0;
	}
}

/**
 * Errors that say the site is under strain (the pace halves): a refusal, a 5xx, an unreadable answer, a
 * broken connection, an outcome that needed reconciling. Business answers (no balance, bad number) do not.
 */
const STRAIN_CODES: ReadonlySet<string> = new Set([
	'rate_limited',
	'server',
	'bad_response',
	'network',
	'unknown_outcome',
	'not_charged',
]);

/** The longest pause the runner takes before sending a refused (429) item again. */
const MAX_REFUSED_WAIT_MS = 30_000;

/**
 * A 429 the client gave up on (it already retried it, honouring Retry-After): the site refused before doing
 * anything (the client proves nothing was bought: `rate_limited` is a not-charged code), so the item may go
 * again after a pause, up to MAX_REQUEUES times. Anything else is not re-sent here.
 */
function refusedFor(error: unknown, attempt: number): Outcome | undefined {
	const e = error as { code?: string; retryAfterMs?: number };
	if (e.code !== 'rate_limited' || attempt >= MAX_REQUEUES) return undefined;
	// a site asking for a longer pause than this is not coming back within the run: the row fails as refused
	if ((e.retryAfterMs ?? 0) > MAX_REFUSED_WAIT_MS) return undefined;
	const backoff = Math.min(MAX_REFUSED_WAIT_MS, 1000 * 2 ** attempt);
	return { kind: 'refused', retryAfterMs: Math.max(e.retryAfterMs ?? 0, backoff) };
}

/**
 * A failed or unclear row under Continue On Fail. With "On Error: Continue (using error output)" n8n moves an
 * item to the error output only when its JSON is nothing but `error` (n8n 1.x/2.x; n8n also replaces the
 * JSON of an item that carries an n8n error object, losing what the row needs to be resolved later), so
 * there the facts go inside `error`: `{ error: { message, code, row, hint, … } }`, merged by n8n with the
 * input row's fields. Otherwise the row's JSON is the facts themselves.
 */
function failedItem(
	node: INode,
	json: IDataObject,
	pairedItem: IPairedItemData | IPairedItemData[],
): INodeExecutionData {
	if (node.onError !== 'continueErrorOutput') return { json, pairedItem };
	const { error, ...facts } = json;
	return { json: { error: { message: error, ...facts } }, pairedItem };
}

/**
 * n8n marks an execution failed only when a node throws; with Continue On Fail it shows "Succeeded". The
 * node says in its output panel how many rows failed or are unclear (an execution hint, n8n 1.x and 2.x).
 */
export function hintFailedRows(ctx: IExecuteFunctions, items: INodeExecutionData[], rows: number): void {
	// the facts of a failed row, flat or inside `error` (error output)
	const facts = (o: INodeExecutionData): IDataObject | undefined =>
		o.json.error === undefined
			? undefined
			: typeof o.json.error === 'object' && o.json.error !== null
				? (o.json.error as IDataObject)
				: o.json;
	const failed = items.map(facts).filter((f): f is IDataObject => f !== undefined);
	if (failed.length === 0 || typeof ctx.addExecutionHints !== 'function') return;
	const unclear = failed.filter((f) => f.code === 'unknown_outcome').length;
	const list = failed
		.slice(0, 10)
		.map((f) => (typeof f.row === 'number' ? f.row : '?'))
		.join(', ');
	const more = failed.length > 10 ? ', …' : '';
	ctx.addExecutionHints({
		message:
			`${failed.length} of ${rowsWord(rows)} not done (row${failed.length === 1 ? '' : 's'} ${list}${more})` +
			(unclear ? `, ${unclear} of them unclear: check later, do not buy again` : '') +
			(ctx.getNode().onError === 'continueErrorOutput'
				? '. They are on the error output.'
				: '. Choose Settings, On Error: "Continue (using error output)" to route them on their own output.'),
		type: 'warning',
		location: 'outputPane',
	});
}

/**
 * Since when items count as already bought (ms), or null when this run does not look: a retried
 * execution (n8n's "Retry execution", mode 'retry') always looks, other runs only with the option.
 */
export function existingSince(ctx: IExecuteFunctions, opts: PurchaseRunOptions, now = Date.now()): number | null {
	const minutes = opts.skipIfBoughtWithinMinutes || (ctx.getMode() === 'retry' ? RETRY_LOOKBACK_MINUTES : 0);
	return minutes > 0 ? now - minutes * 60_000 : null;
}

/**
 * Items an earlier try of this node run (same execution, n8n Retry On Fail) already dealt with: bought
 * ones come back as they were (path already_bought_this_execution), an unclear one is looked up once more
 * (`client.reconcile`, no waiting): bought → its record; proven not bought → bought now like any other
 * item; still unclear → the item fails again and nothing is sent. Returns the items settled here.
 */
async function recallEarlierTries(
	client: VtuClient,
	memory: RetryMemory,
	ledger: SpendLedger | undefined,
	items: Array<[number, unknown]>,
	settle: (i: number, out: INodeExecutionData[] | { error: unknown; sentAt: string }) => void,
): Promise<Set<number>> {
	const done = new Set<number>();
	for (const [i, request] of items) {
		const memo = memory.get(i, request);
		if (!memo) continue;
		if (memo.kind === 'bought') {
			settle(i, alreadyBought(memo.items));
			done.add(i);
			continue;
		}
		const answer = await resolveUnclear(client, request, memo.sentAt, customerRefOf(memo.error));
		if (answer.kind === 'not_bought') {
			if (ledger) ledger.add(-memo.reservedKobo);
			continue; // proven: buy it like any other item
		}
		done.add(i);
		if (answer.kind === 'bought') {
			const out = [{ json: resultJson(answer.record) }];
			if (ledger) ledger.add(answer.record.amount.kobo - memo.reservedKobo);
			memory.set(i, request, {
				kind: 'bought',
				items: out,
				chargedKobo: answer.record.amount.kobo,
				reservedKobo: answer.record.amount.kobo,
			});
			settle(i, alreadyBought(out));
		} else settle(i, { error: answer.error ?? memo.error, sentAt: memo.sentAt });
	}
	return done;
}

/** Said on an item an earlier try of this execution bought: nothing was sent for it this time. */
export const ALREADY_BOUGHT_NOTE =
	'n8n ran this node again in the same execution (Retry On Fail); this item was bought by the ' +
	'earlier try and was not bought again';

function alreadyBought(items: INodeExecutionData[]): INodeExecutionData[] {
	return items.map((o) => ({
		...o,
		json: {
			...o.json,
			path: 'already_bought_this_execution',
			boughtVia: o.json.path ?? null,
			note: ALREADY_BOUGHT_NOTE,
		},
	}));
}

function collect(outputs: Array<INodeExecutionData[] | undefined>): INodeExecutionData[] {
	const out: INodeExecutionData[] = [];
	for (const o of outputs) if (o) out.push(...o);
	return out;
}

/**
 * Per-item loop for the read-only operations: pairedItem,
 * continueOnFail, `[row N]` errors (rows from 1, as n8n shows them).
 * `fn` returns one or more JSON objects (or full items, e.g. with binary data).
 */
export async function runEachItem(
	ctx: IExecuteFunctions,
	fn: (itemIndex: number, client: VtuClient) => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	const node = ctx.getNode();
	const client = await getClient(ctx);
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const res = await fn(i, client);
			const arr = Array.isArray(res) ? res : [res];
			for (const json of arr) out.push({ json, pairedItem: { item: i } });
		} catch (error) {
			if (ctx.continueOnFail()) {
				out.push(failedItem(node, errorJson(error, i), { item: i }));
				continue;
			}
			throw toNodeError(node, error, i);
		}
	}
	hintFailedRows(ctx, out, items.length);
	return out;
}
