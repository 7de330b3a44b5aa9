/**
 * Adaptive concurrency for the purchase runner (AIMD, as TCP does with its window): start with a few
 * purchases in flight, triple per round trip while the site answers cleanly and about as fast as its
 * fastest answer (slow start, left at the first answer 1.5× slower), then grow by one per round trip; on
 * a refusal (429) drop to what is still in flight; cut to 0.7 on a 5xx or an unclear outcome, or when
 * answers take much longer than the fastest one (the site is queueing us). Never above the ceiling the
 * workflow's builder set. A refused purchase (429: the site did nothing) waits and goes back in the queue;
 * everything else is the caller's to settle (an unclear purchase is reconciled by the client, never re-sent).
 */
import { sleep } from 'n8n-workflow';

export const MAX_CONCURRENCY = 1000;

/**
 * In flight at the start, before the site has said anything. A burst of S to a site serving W at a time, T
 * seconds each, has its last answer after S × T / W: 10 stay inside the client's 30 s timeout at any site
 * that answers within 3 s, even one purchase at a time. A larger start is faster only at sites with more
 * room (200 at once need W ≥ 7 at 1 s, 20 at 3 s), and nothing tells the pace which site it has before the
 * first answer; past the timeout a purchase is unclear (reconciled, never re-sent, but maybe "check later").
 */
export const START_CONCURRENCY = 10;
/**
 * The ceiling when the builder sets none. Only a site that keeps answering fast and clean ever sees it: the
 * pace stops growing at the first slow answer, refusal or error (docs/nodes.md says why this is safe).
 * 1000 in flight lets 2,000 items at a 1 s site go about as fast as n8n's HTTP Request sending every item at
 * once (bench/README.md, bench/history.md); a lower ceiling is the run's speed limit against such a site
 * (100: 0.3× as fast).
 */
export const DEFAULT_CEILING = 1000;
/** The Concurrency option's default: the ceiling above (the pace starts at START_CONCURRENCY whatever it is). */
export const DEFAULT_CONCURRENCY = DEFAULT_CEILING;
/**
 * What each clean answer adds during slow start: 2, so the limit triples per round trip (10, 30, 90, 270,
 * 810…). Against a 1 s site the ramp is the run's cost (each step is one answer time); doubling needs 8
 * round trips to have 2,000 items sent, tripling 6. The price: a site that breaks without slowing down first
 * can see up to three times what it took cleanly the round trip before, for one round trip.
 */
export const SLOW_START_STEP = 2;
/**
 * An answer counts as "slow" (the site is queueing) past this many times the fastest one seen plus
 * LATENCY_SLACK_MS (the slack keeps a site answering in milliseconds from looking strained by jitter).
 */
export const LATENCY_FACTOR = 2;
export const LATENCY_SLACK_MS = 250;
/**
 * Slow start ends, without a cut, at the first answer past this many times the fastest plus the slack
 * (HyStart's idea): answers getting slower mean the site began to queue, so the limit stops tripling before
 * the queue is long enough to count as strain. Modelled against a site holding 5 at 3 s, it shortens the
 * longest wait in its queue from 21 s to 9 s at no cost in speed where the site keeps up.
 */
export const SLOW_START_EXIT_FACTOR = 1.5;
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
	/** Tripling per round trip until the first answer slower than usual or sign of strain. */
	private slowStart = true;
	/** When the limit was last cut: answers to purchases sent before it say nothing new. */
	private cutAt = -Infinity;
	/** What the limit went through, for tests and logs: the highest reached and how many cuts. */
	peak: number;
	cuts = 0;
	/** The most purchases out at once before the first cut (what the site held without strain). */
	heldClean = 0;
	/** Where the last cut left the limit. */
	private cutTo = Infinity;

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

	/** A purchase went out with `inFlight` out now (itself included). */
	sent(inFlight: number): void {
		if (this.cuts === 0) this.heldClean = Math.max(this.heldClean, inFlight);
	}

	/**
	 * The pace this run reached cleanly, for the next run to the same site (PaceMemory), undefined when nothing
	 * was sent. After a cut: where the last cut left the limit. Without one: the limit, but never more than the
	 * next step from what the site really held (a run of 200 ends with the limit at 410 while at most ~140 were
	 * out): three times that while still in slow start (the step the run would have taken next), that itself
	 * once answers began to slow down.
	 */
	learned(): number | undefined {
		if (this.heldClean === 0) return undefined;
		if (this.cuts > 0) return Math.max(1, Math.floor(this.cutTo));
		const validated = this.slowStart ? this.heldClean * (SLOW_START_STEP + 1) : this.heldClean;
		return Math.min(this.current, validated);
	}

	/**
	 * A clean answer after `ms`, to a purchase sent at `sentAt` (ms timestamps); `ms` undefined: its time
	 * says nothing about the site (it includes waiting for the final status), so only the answer counts.
	 */
	answered(sentAt: number, ms?: number): void {
		if (ms !== undefined) {
			if (ms > this.fastestMs * LATENCY_FACTOR + LATENCY_SLACK_MS) return this.strained(sentAt);
			this.fastestMs = Math.min(this.fastestMs, ms);
			if (ms > this.fastestMs * SLOW_START_EXIT_FACTOR + LATENCY_SLACK_MS) this.slowStart = false;
		}
		// SLOW_START_STEP more per answer triples the limit per round trip; 1/limit per answer adds one per round trip
		this.limit = Math.min(this.ceiling, this.limit + (this.slowStart ? SLOW_START_STEP : 1 / this.limit));
		this.peak = Math.max(this.peak, this.current);
	}

	/**
	 * A 429 (the site did nothing with it) while `inFlight` others are still out: the site holds at most those,
	 * so the limit drops straight to that (a 0.7 cut per round trip needed 8 round trips to come down from
	 * 1,000 to a site refusing beyond 50). Applied on every refusal: a burst's refusals arrive within
	 * milliseconds, each one lowering the limit to what is still out. No multiplicative cut on top: a refusal
	 * cost the site nothing, and probing one above what it holds costs one more refusal per round trip.
	 */
	refused(inFlight: number): void {
		this.slowStart = false;
		const to = Math.max(1, inFlight);
		if (to >= this.limit) return;
		this.limit = to;
		this.cutTo = to;
		this.cuts++;
	}

	/** A sign of strain from a purchase sent at `sentAt`: cut to DECREASE, at most once per round trip. */
	strained(sentAt: number, now = Date.now()): void {
		this.slowStart = false;
		if (sentAt < this.cutAt) return; // sent before the last cut: the cut already answered it
		this.cutAt = now;
		this.limit = Math.max(1, this.limit * DECREASE);
		this.cutTo = this.limit;
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
		active--;
		if (out.kind === 'clean') limit.answered(sentAt, out.untimed ? undefined : Date.now() - sentAt);
		else if (out.kind === 'refused') limit.refused(active);
		else limit.strained(sentAt);
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
			limit.sent(active);
			void one(queue.shift()!);
		}
		if (active === 0 && waiting === 0) settle();
	};
	pump();
	await done;
	if (failure) throw failure.error;
}
