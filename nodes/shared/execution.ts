/**
 * What a purchase node remembers within one execution: its running spend (Spend Cap) and, for n8n's
 * Retry On Fail, what an earlier try of the same node run bought. Both hang off the node's context in
 * the execution's own data (`getContext('node')`), so they belong to exactly one execution and node,
 * are never pushed out by other executions, and are freed with the execution.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** What an earlier try of this node run (n8n Retry On Fail) did with one item. */
export type TryMemo =
	| { kind: 'bought'; items: INodeExecutionData[]; chargedKobo: number | null; reservedKobo: number }
	| { kind: 'unclear'; error: unknown; sentAt: string; reservedKobo: number };

export interface RetryMemory {
	get(itemIndex: number, request: unknown): TryMemo | undefined;
	set(itemIndex: number, request: unknown, memo: TryMemo): void;
	/** The node run ended without an error n8n retries on: nothing more to remember for it. */
	forget(): void;
}

export interface SpendLedger {
	get(): number;
	add(kobo: number): void;
}

/** Key of the running spend in the node's context (persisted with the execution). */
const SPENT_KEY = 'vtuSpentKobo';

/**
 * Try memories per node context object, per run index. A WeakMap: the entry lives exactly as long as the
 * execution's data (n8n keeps that object for the whole execution, retries included), nothing to expire.
 */
const memories = new WeakMap<object, Map<number, Map<string, TryMemo>>>();

/** The node's context of this execution, or undefined where the engine has none (then nothing is shared). */
function nodeContext(ctx: IExecuteFunctions): IDataObject | undefined {
	try {
		return ctx.getContext('node');
	} catch {
		return undefined;
	}
}

/** Which run of the node this is in the execution (loops run a node several times; retries keep the index). */
function runIndex(ctx: IExecuteFunctions): number {
	try {
		return Number(ctx.getWorkflowDataProxy(0).$runIndex) || 0;
	} catch {
		return 0;
	}
}

/** FNV-1a of `s` from `seed` (two seeds: a 64-bit key without keeping a whole campaign's rows as a string). */
function fnv(s: string, seed: number): string {
	let h = seed;
	for (let i = 0; i < s.length; i++) {
		h ^= s.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return (h >>> 0).toString(36);
}

/**
 * Item index and request: across tries of one node run the same item always has the same request, so the
 * request part only guards against an input that changed under the same index.
 */
function requestKey(itemIndex: number, request: unknown): string {
	const text = JSON.stringify(request, setsAsArrays) ?? '';
	return `${itemIndex}:${fnv(text, 0x811c9dc5)}${fnv(text, 0x01000193)}:${text.length}`;
}

function setsAsArrays(_key: string, value: unknown): unknown {
	return value instanceof Set ? [...value] : value;
}

/** This node run's memory of earlier tries (n8n Retry On Fail re-runs the node in the same execution). */
export function retryMemory(ctx: IExecuteFunctions): RetryMemory {
	const owner = nodeContext(ctx) ?? {};
	const run = runIndex(ctx);
	const runs = memories.get(owner) ?? new Map<number, Map<string, TryMemo>>();
	memories.set(owner, runs);
	const items = (): Map<string, TryMemo> => {
		let m = runs.get(run);
		if (!m) runs.set(run, (m = new Map()));
		return m;
	};
	return {
		get: (i, request) => runs.get(run)?.get(requestKey(i, request)),
		set: (i, request, memo) => void items().set(requestKey(i, request), memo),
		forget: () => void runs.delete(run),
	};
}

/**
 * This node's running spend in this execution (kobo), shared by every run of the node (loops, retries)
 * and saved with the execution, so a Wait that parks it and a resume on another worker keep it.
 */
export function spendLedger(ctx: IExecuteFunctions): SpendLedger {
	const store = nodeContext(ctx) ?? {};
	const get = (): number => (typeof store[SPENT_KEY] === 'number' ? (store[SPENT_KEY] as number) : 0);
	return { get, add: (kobo) => void (store[SPENT_KEY] = get() + kobo) };
}
