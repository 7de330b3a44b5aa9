/**
 * Adaptive concurrency for the purchase runner (AIMD, as TCP does with its window): start with a few
 * purchases in flight, double per round trip while the site answers cleanly and about as fast as its
 * fastest answer, then grow by one per round trip; cut to 0.7 on a refusal (429), a 5xx or an unclear
 * outcome, or when answers take much longer than the fastest one (the site is queueing us). Never above
 * the ceiling the workflow's builder set. A refused purchase (429: the site did nothing) waits and goes
 * back in the queue; everything else is the caller's to settle (an unclear purchase is reconciled by the
 * client, never re-sent).
 */
import { sleep } from 'n8n-workflow';

/**
 * The Concurrency option is a ceiling: the runner starts with START_CONCURRENCY purchases in flight and
 * grows only while the site answers cleanly and fast (below). 100: against a site
 * answering in 1 s that can take the load, 100 at a time comes close to n8n's HTTP Request node sending
 * every item at once (bench/n8n.js); a site that cannot take it slows down or refuses first, and the pace
 * halves then, so the ceiling is not what such a site sees.
 */
export const DEFAULT_CONCURRENCY = 100;
export const MAX_CONCURRENCY = 1000;

/** In flight at the start: what the nodes always sent at once, known to suit real sites. */
export const START_CONCURRENCY = 10;
/**
 * An answer counts as "slow" (the site is queueing) past this many times the fastest one seen plus
 * LATENCY_SLACK_MS (the slack keeps a site answering in milliseconds from looking strained by jitter).
 */
export const LATENCY_FACTOR = 2;
export const LATENCY_SLACK_MS = 250;
/**
 * What the limit is multiplied by on strain (CUBIC's 0.7 rather than Reno's 0.5: against a site that refuses
 * beyond its capacity, halving leaves a quarter of it unused on average; 0.7 about half as much).
 */
export const DECREASE = 0.7;
/** How often one item refused with 429 goes back in the queue before its row fails with rate_limited. */
export const MAX_REQUEUES = 8;

export class AdaptiveLimit {
	private limit: number;
	/** Fastest clean answer so far (ms): the site's own time without queueing. */
	private fastestMs = Infinity;
	/** Doubling per round trip until the first sign of strain. */
	private slowStart = true;
	/** When the limit was last cut: answers to purchases sent before it say nothing new. */
	private cutAt = -Infinity;
	/** What the limit went through, for tests and logs: the highest reached and how many cuts. */
	peak: number;
	cuts = 0;

	constructor(
		readonly ceiling: number,
		start = START_CONCURRENCY,
	) {
		this.limit = Math.max(1, Math.min(ceiling, start));
		this.peak = this.limit;
	}

	get current(): number {
		return Math.max(1, Math.floor(this.limit));
	}

	/**
	 * A clean answer after `ms`, to a purchase sent at `sentAt` (ms timestamps); `ms` undefined: its time
	 * says nothing about the site (it includes waiting for the final status), so only the answer counts.
	 */
	answered(sentAt: number, ms?: number): void {
		if (ms !== undefined) {
			if (ms > this.fastestMs * LATENCY_FACTOR + LATENCY_SLACK_MS) return this.strained(sentAt);
			this.fastestMs = Math.min(this.fastestMs, ms);
		}
		// one more per answer doubles the limit per round trip; 1/limit per answer adds one per round trip
		this.limit = Math.min(this.ceiling, this.limit + (this.slowStart ? 1 : 1 / this.limit));
		this.peak = Math.max(this.peak, this.current);
	}

	/** A sign of strain from a purchase sent at `sentAt`: cut to DECREASE, at most once per round trip. */
	strained(sentAt: number, now = Date.now()): void {
		this.slowStart = false;
		if (sentAt < this.cutAt) return; // sent before the last cut: the cut already answered it
		this.cutAt = now;
		this.limit = Math.max(1, this.limit * DECREASE);
		this.cuts++;
	}
}

/** How one purchase went, as far as the pace is concerned. */
export type Outcome =
	| { kind: 'clean'; untimed?: boolean }
	| { kind: 'strained' }
	| { kind: 'refused'; retryAfterMs: number };

/**
 * Run `fn` over `indices` with `limit.current` in flight, re-read after every answer. A `refused` item
 * waits `retryAfterMs` and goes back to the front of the queue (`fn` says so only when the site provably
 * did nothing). Stops starting new work when `shouldStop` says so; `fn` must not throw.
 */
export async function runAdaptive(
	indices: number[],
	limit: AdaptiveLimit,
	fn: (index: number, attempt: number) => Promise<Outcome>,
	shouldStop: () => boolean = () => false,
): Promise<void> {
	const queue = indices.map((i) => ({ i, attempt: 0 }));
	let active = 0;
	let waiting = 0;
	let settle: () => void = () => {};
	const done = new Promise<void>((r) => (settle = r));
	let failure: { error: unknown } | undefined;
	const one = async (job: { i: number; attempt: number }): Promise<void> => {
		const sentAt = Date.now();
		let out: Outcome;
		try {
			out = await fn(job.i, job.attempt);
		} catch (error) {
			// a bug in `fn`: stop starting work and throw it once the rest is in
			failure ??= { error };
			out = { kind: 'strained' };
		}
		if (out.kind === 'clean') limit.answered(sentAt, out.untimed ? undefined : Date.now() - sentAt);
		else limit.strained(sentAt);
		active--;
		if (out.kind === 'refused') {
			// the pause holds no slot: the site is told "later", others may use the room meanwhile
			waiting++;
			pump();
			await sleep(out.retryAfterMs);
			waiting--;
			queue.unshift({ i: job.i, attempt: job.attempt + 1 });
		}
		pump();
	};
	const pump = (): void => {
		while (active < limit.current && queue.length > 0 && !failure && !shouldStop()) {
			active++;
			void one(queue.shift()!);
		}
		if (active === 0 && waiting === 0) settle();
	};
	pump();
	await done;
	if (failure) throw failure.error;
}
