import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, IPairedItemData } from 'n8n-workflow';

import {
	formatNaira,
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
	DEFAULT_CEILING,
	MAX_REQUEUES,
	runAdaptive,
	START_CONCURRENCY,
	type Outcome,
} from './concurrency';
import { retryMemory, spendLedger, type RetryMemory, type SpendLedger } from './execution';
import { quoteJson, resultJson } from './format';
import { customerRefOf, resolveUnclear, unclearFacts } from './unclear';

export interface PurchaseRunOptions {
	waitForFinal: boolean;
	waitTimeoutSeconds: number;
	/** The most purchases in flight (the Concurrency option, else DEFAULT_CONCURRENCY). */
	concurrency: number;
	/** In flight at the start: the Concurrency the builder set (they know the site), else START_CONCURRENCY. */
	startConcurrency: number;
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

/**
 * The Concurrency option is a ceiling: the runner starts with START_CONCURRENCY purchases in flight and
 * grows only while the site answers cleanly and fast (nodes/shared/concurrency.ts; DEFAULT_CEILING there
 * says why the default is what it is).
 */
export const DEFAULT_CONCURRENCY = DEFAULT_CEILING;
export const MAX_CONCURRENCY = 1000;

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
				`The option "${OPTION_LABELS[name] ?? name}" is filled by the AI model ($fromAI); limits like this one must be fixed by the workflow`,
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
		startConcurrency: o.concurrency === undefined ? Math.min(concurrency, START_CONCURRENCY) : concurrency,
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

/**
 * The one per-item runner of every purchase node: builds and checks every item first (nothing is
 * sent if one is bad and Continue On Fail is off), prices them for Dry Run / Spend Cap, then buys
 * with bounded concurrency. Output: one entry per input item (several for multi-item results) in
 * input order, each with pairedItem; failed rows are `{ error, code, … }` under Continue On Fail.
 */
export async function runPurchases<R>(ctx: IExecuteFunctions, hooks: PurchaseHooks<R>): Promise<INodeExecutionData[]> {
	const node = ctx.getNode();
	const count = hooks.count ?? ctx.getInputData().length;
	const paired = hooks.paired ?? ((i: number) => ({ item: i }));
	const continueOnFail = ctx.continueOnFail();
	let opts: PurchaseRunOptions;
	try {
		opts = readPurchaseOptions(ctx);
	} catch (error) {
		throw toNodeError(node, error);
	}
	const client = await getClient(ctx, hooks.clientOptions);

	const requests: Array<R | undefined> = new Array(count);
	const outputs: Array<INodeExecutionData[] | undefined> = new Array(count);
	// a dry run lists every bad row (it never stops at the first one); a real run stops unless Continue On Fail
	const collectAll = continueOnFail || opts.dryRun;
	const bad = new Map<number, unknown>();
	const fail = (i: number, error: unknown) => {
		if (!collectAll) throw toNodeError(node, error, i);
		bad.set(i, error);
		outputs[i] = [failedItem(node, errorJson(error, i), paired(i))];
	};

	// 1. Read every item's parameters before anything is sent.
	for (let i = 0; i < count; i++) {
		try {
			requests[i] = await hooks.build(i);
		} catch (error) {
			fail(i, error);
		}
	}
	let pending = requests.map((r, i) => (r === undefined ? -1 : i)).filter((i) => i >= 0);
	const ledger = opts.spendCapKobo > 0 ? spendLedger(ctx) : undefined;

	// n8n's Retry On Fail re-runs this node in the same execution: what an earlier try bought is given back,
	// an unclear one is looked up again (never re-sent), and only the rest goes on.
	const memory = retryMemory(ctx);
	const { processingMs } = await getVtuCredentials(ctx);
	if (!opts.dryRun) {
		const done = await recallEarlierTries(
			client,
			memory,
			ledger,
			pending.map((i) => [i, requests[i]]),
			(i, out) => {
				if (out instanceof Array) outputs[i] = out.map((o) => ({ ...o, pairedItem: paired(i) }));
				else if (!continueOnFail) throw toNodeError(node, out.error, i);
				else {
					const json = {
						...errorJson(out.error, i),
						...unclearFacts(out.error, { request: requests[i], sentAt: out.sentAt, processingMs }),
					};
					outputs[i] = [failedItem(node, json, paired(i))];
				}
			},
		);
		pending = pending.filter((i) => !done.has(i));
	}

	// 2. Check and price every item with the client's quote (local rules + cached catalogue), still
	// without sending: a bad row stops the run before anything is bought (or fails alone under
	// Continue On Fail); Dry Run and Spend Cap use the prices.
	const prices = new Map<number, { kobo: number; json: IDataObject }>();
	{
		const quote = hooks.quote ?? (defaultQuote as NonNullable<PurchaseHooks<R>['quote']>);
		let firstError: { i: number; error: unknown } | undefined;
		await runPool(pending, Math.min(opts.concurrency, START_CONCURRENCY), async (i) => {
			try {
				prices.set(i, await quote(client, requests[i] as R, i));
			} catch (error) {
				if (!collectAll) {
					if (!firstError || i < firstError.i) firstError = { i, error };
					return;
				}
				fail(i, error);
			}
		});
		if (firstError) throw toNodeError(node, firstError.error, firstError.i);
		pending = pending.filter((i) => prices.has(i));
	}

	// 3. Retried execution (or the Skip If Already Bought option): items the account's records already
	// answer are not bought again; an item whose records could not be read is not bought blindly.
	const existing = new Map<number, PurchaseResult>();
	const since = existingSince(ctx, opts);
	if (since !== null) {
		const checkable = new Map<number, PurchaseRequest>();
		for (const i of pending) if (canCheckExisting(requests[i])) checkable.set(i, requests[i] as PurchaseRequest);
		const { found, unchecked } = await findExisting(client, checkable, since, (n, read) =>
			runPool([...Array(n).keys()], Math.min(opts.concurrency, START_CONCURRENCY), read),
		);
		for (const [i, r] of found) existing.set(i, r);
		for (const i of [...unchecked.keys()].sort((a, b) => a - b)) fail(i, unchecked.get(i));
		pending = pending.filter((i) => !existing.has(i) && !unchecked.has(i));
	}

	if (opts.dryRun) {
		return dryRunOutput(client, {
			count,
			pending,
			prices,
			existing,
			bad,
			opts,
			paired,
			outputs,
			spentKobo: ledger ? ledger.get() : 0,
			detail: opts.dryRunDetail,
			looked: since !== null,
		});
	}

	// 4. Spend cap: reserve each item's price in input order; refuse what would go over.
	if (ledger) {
		const allowed: number[] = [];
		for (const i of pending) {
			const price = prices.get(i)!.kobo;
			const after = ledger.get() + price;
			if (after > opts.spendCapKobo) {
				fail(
					i,
					refuse(
						'spend_cap',
						`Not bought: this item costs ${nairaText(price)} and would take this execution's spending to ${nairaText(after)}, over the Spend Cap of ${nairaText(opts.spendCapKobo)}. Nothing was sent for it`,
					),
				);
				continue;
			}
			ledger.add(price);
			allowed.push(i);
		}
		pending = allowed;
	}

	// 5. Buy, with bounded concurrency; results stay in input order.
	const buyOpts: BuyOptions = {};
	if (opts.waitForFinal) {
		buyOpts.waitForFinal = { timeoutMs: opts.waitTimeoutSeconds * 1000 };
	}
	if (opts.retryIfNotCharged) buyOpts.retryIfNotCharged = true;
	for (const [i, r] of existing) outputs[i] = [{ json: existingJson(r), pairedItem: paired(i) }];
	const execute = hooks.execute ?? (defaultExecute as NonNullable<PurchaseHooks<R>['execute']>);
	const started = new Set<number>();
	let stopError: { i: number; error: unknown } | undefined;
	const pace = new AdaptiveLimit(opts.concurrency, opts.startConcurrency);
	await runAdaptive(
		pending,
		pace,
		async (i, attempt) => {
			started.add(i);
			const reserved = prices.get(i)?.kobo ?? 0;
			// a lower bound of when it left (what reconciliation needs to look back far enough)
			const sentAt = new Date().toISOString();
			try {
				const { items: out, chargedKobo } = await execute(client, requests[i] as R, { ...buyOpts }, i);
				if (ledger && chargedKobo !== null) ledger.add(chargedKobo - reserved);
				outputs[i] = out.map((o) => ({ ...o, pairedItem: paired(i) }));
				memory.set(i, requests[i], { kind: 'bought', items: out, chargedKobo, reservedKobo: chargedKobo ?? reserved });
				// waiting for the final status makes the time the vendor's settling, not how busy the site is
				return { kind: 'clean', untimed: opts.waitForFinal };
			} catch (error) {
				const refused = refusedFor(error, attempt);
				if (refused) {
					// the site did nothing: the item waits and goes again (a stop meanwhile leaves it unsent)
					started.delete(i);
					return refused;
				}
				const code = (error as { code?: string }).code;
				const notCharged = code !== undefined && NOT_CHARGED_CODES.has(code);
				if (ledger && notCharged) ledger.add(-reserved);
				if (!notCharged) memory.set(i, requests[i], { kind: 'unclear', error, sentAt, reservedKobo: reserved });
				if (!continueOnFail) {
					if (!stopError || i < stopError.i) stopError = { i, error };
				} else {
					const json = errorJson(error, i);
					if (!notCharged) Object.assign(json, unclearFacts(error, { request: requests[i], sentAt, processingMs }));
					outputs[i] = [failedItem(node, json, paired(i))];
				}
				return { kind: code !== undefined && STRAIN_CODES.has(code) ? 'strained' : 'clean' };
			}
		},
		() => stopError !== undefined,
	);
	// items a stop left unsent give their reservation back (a retry reserves them again)
	if (ledger) for (const i of pending) if (!started.has(i)) ledger.add(-(prices.get(i)?.kobo ?? 0));
	if (stopError) throw toNodeError(node, stopError.error, stopError.i);
	const result = collect(outputs);
	// n8n retries a run whose first item is an error (Continue On Fail) or that threw; this one is final
	if (result[0]?.json.error === undefined) memory.forget();
	hintFailedRows(ctx, result, count);
	return result;
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
			`${failed.length} of ${rows} row${rows === 1 ? '' : 's'} not done (rows ${list}${more})` +
			(unclear ? `, ${unclear} of them unclear: check later, do not buy again` : '') +
			(ctx.getNode().onError === 'continueErrorOutput'
				? '. They are on the error output.'
				: '. Choose Settings, On Error: "Continue (using error output)" to route them on their own output.'),
		type: 'warning',
		location: 'outputPane',
	});
}

interface DryRunFacts {
	count: number;
	pending: number[];
	prices: Map<number, { kobo: number; json: IDataObject }>;
	existing: Map<number, PurchaseResult>;
	bad: Map<number, unknown>;
	opts: PurchaseRunOptions;
	paired: (index: number) => IPairedItemData | IPairedItemData[];
	outputs: Array<INodeExecutionData[] | undefined>;
	spentKobo: number;
	detail: boolean;
	/** Whether items already bought were looked up (Skip If Already Bought Within, retried execution). */
	looked: boolean;
}

/**
 * A dry run answers "can I run this?": one summary item (rows, total, wallet balance, short by how much,
 * every bad row with its reason), then, with Dry Run Detail, one item per row.
 */
async function dryRunOutput(client: VtuClient, f: DryRunFacts): Promise<INodeExecutionData[]> {
	let totalKobo = 0;
	for (const i of f.pending) totalKobo += f.prices.get(i)!.kobo;
	let wallet: number | null = null;
	try {
		wallet = (await client.user.balance()).kobo;
	} catch {
		wallet = null; // the summary says the balance could not be read; pricing still stands
	}
	const shortKobo = wallet === null ? 0 : Math.max(0, totalKobo - wallet);
	const capLeft = f.opts.spendCapKobo > 0 ? f.opts.spendCapKobo - f.spentKobo : null;
	const overCap = capLeft !== null && totalKobo > capLeft;
	const badRows = [...f.bad.keys()]
		.sort((a, b) => a - b)
		.map((i) => {
			const e = errorJson(f.bad.get(i), i);
			return { row: i + 1, error: e.error, code: e.code, ...(e.hint ? { hint: e.hint } : {}) } as IDataObject;
		});
	const canRun = badRows.length === 0 && shortKobo === 0 && !overCap && wallet !== null;
	const rowsWord = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
	const parts = [`${rowsWord(f.count)}: ${f.pending.length} ready (${nairaText(totalKobo)})`];
	if (badRows.length) parts.push(`${badRows.length} bad (rows ${badRows.map((b) => b.row).join(', ')})`);
	if (f.existing.size) parts.push(`${f.existing.size} already bought, would be skipped`);
	parts.push(wallet === null ? 'wallet balance could not be read' : `wallet ${nairaText(wallet)}`);
	if (shortKobo > 0) parts.push(`short by ${nairaText(shortKobo)}`);
	if (overCap) parts.push(`over the Spend Cap (${nairaText(capLeft!)} left of ${nairaText(f.opts.spendCapKobo)})`);
	const summary: IDataObject = {
		dryRun: true,
		canRun,
		summary: `${canRun ? 'Can run' : 'Cannot run'}: ${parts.join('; ')}.`,
		rows: f.count,
		ready: f.pending.length,
		bad: badRows.length,
		alreadyBought: f.existing.size,
		total: formatNaira(totalKobo),
		walletBalance: wallet === null ? null : formatNaira(wallet),
		shortBy: formatNaira(shortKobo),
		...(f.opts.spendCapKobo > 0 ? { spendCap: formatNaira(f.opts.spendCapKobo), withinSpendCap: !overCap } : {}),
		badRows,
	};
	// one row (e.g. a whole SMS campaign): its own priced item, with the summary's facts
	if (f.count === 1 && f.pending.length === 1) {
		const { canRun: c, total, walletBalance, shortBy, spendCap, withinSpendCap } = summary;
		const facts = {
			canRun: c,
			verdict: summary.summary,
			total,
			walletBalance,
			shortBy,
			...(spendCap ? { spendCap, withinSpendCap } : {}),
		};
		return [{ json: { dryRun: true, ...f.prices.get(f.pending[0])!.json, ...facts }, pairedItem: f.paired(0) }];
	}
	const everyRow = Array.from({ length: f.count }, (_, i) => f.paired(i)).flat();
	const out: INodeExecutionData[] = [{ json: summary, pairedItem: everyRow }];
	if (!f.detail) return out;
	let running = f.spentKobo;
	for (let i = 0; i < f.count; i++) {
		const r = f.existing.get(i);
		if (r)
			out.push({
				json: { dryRun: true, row: i + 1, wouldSkip: true, ...f.prices.get(i)!.json, existing: existingJson(r) },
				pairedItem: f.paired(i),
			});
		else if (f.prices.has(i) && !f.bad.has(i)) {
			running += f.prices.get(i)!.kobo;
			const json: IDataObject = {
				dryRun: true,
				row: i + 1,
				...(f.looked ? { wouldSkip: false } : {}),
				...f.prices.get(i)!.json,
			};
			// whether this row still fits under the cap, rows bought in input order
			if (f.opts.spendCapKobo > 0) json.withinSpendCap = running <= f.opts.spendCapKobo;
			out.push({ json, pairedItem: f.paired(i) });
		} else if (f.outputs[i]) out.push(...f.outputs[i]!);
	}
	return out;
}

/**
 * Since when items count as already bought (ms), or null when this run does not look: a retried
 * execution (n8n's "Retry execution", mode 'retry') always looks, other runs only with the option.
 */
export function existingSince(ctx: IExecuteFunctions, opts: PurchaseRunOptions, now = Date.now()): number | null {
	const minutes = opts.skipIfBoughtWithinMinutes || (ctx.getMode() === 'retry' ? RETRY_LOOKBACK_MINUTES : 0);
	return minutes > 0 ? now - minutes * 60_000 : null;
}

/** The output of an item that an earlier run already bought: its record, path 'existing', nothing sent. */
function existingJson(r: PurchaseResult): IDataObject {
	return { ...resultJson(r), path: 'existing' };
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
	'n8n ran this node again in the same execution (Retry On Fail); this item was bought by the earlier try and was not bought again';

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
 * Per-item loop for the read-only operations: pairedItem, continueOnFail, `[row N]` errors (rows from 1, as n8n shows them).
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
