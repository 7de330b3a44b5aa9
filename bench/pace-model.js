'use strict';
/**
 * A model of the purchase pace (the built nodes/shared/concurrency.js AdaptiveLimit, on simulated time) against
 * a vendor that answers every purchase after T ms and holds at most C at once, queueing the rest or refusing
 * them with 429 (the client retries a 429 twice, 1 s apart, inside the slot; then the row waits and goes
 * again, as the runner does). No n8n cost: it shows what the rules do, bench/n8n.js what they cost in n8n.
 * Prints per scenario the run's time, its ratio to the vendor-bound limit (items × T ÷ C), 429s and the
 * longest wait a purchase had in the vendor's queue (the client gives up after 30 s).
 *   node bench/pace-model.js [--old]   (--old: the rules before 2026-11-25: no slow-start exit, 0.7 on a 429)
 * `warm`: the run right after the same one, starting at what the first taught the pace memory
 * (dist/nodes/shared/paceMemory.js); `learnedFrom`: starting at what another vendor's run taught it (the
 * site's load changed within the memory's 15 minutes).
 * Needs a built package (npm run build).
 */
const { AdaptiveLimit } = require('../dist/nodes/shared/concurrency.js');
const memory = require('../dist/nodes/shared/paceMemory.js');

let clock = 0;
Date.now = () => clock; // the pace reads the time of a cut from Date.now

/** The previous rules, for comparison: tripling until strain, a 429 cut like any strain. */
class OldLimit extends AdaptiveLimit {
	answered(sentAt, ms) {
		if (ms !== undefined && ms > this.fastestMs * 2 + 250) return this.strained(sentAt);
		if (ms !== undefined) this.fastestMs = Math.min(this.fastestMs, ms);
		this.limit = Math.min(this.ceiling, this.limit + (this.slowStart ? 2 : 1 / this.limit));
		this.peak = Math.max(this.peak, this.current);
	}
	refused() {
		this.strained(clock - 1);
	}
}

/** A vendor answering after `T` ms, holding `C` at once; beyond: 'queue' or '429'. */
function vendor(at, { T, C = Infinity, over = 'queue' }) {
	const v = { serving: 0, queue: [], refused: 0, longestWaitMs: 0 };
	const serve = (fin) => {
		v.serving++;
		at(T, () => {
			v.serving--;
			const next = v.queue.shift();
			if (next) {
				v.longestWaitMs = Math.max(v.longestWaitMs, clock - next.since);
				serve(next.fin);
			}
			fin(true);
		});
	};
	v.arrive = (fin) => {
		if (v.serving < C) serve(fin);
		else if (over === 'queue') v.queue.push({ since: clock, fin });
		else (v.refused++, at(2, () => fin(false)));
	};
	return v;
}

function run(scenario, Limit) {
	const events = [];
	const at = (ms, f) => events.push({ t: clock + ms, f, n: events.length + Math.random() / 2 });
	const v = vendor(at, scenario);
	const limit = new Limit(1000, Math.min(scenario.start ?? 10, scenario.n));
	const queue = Array.from({ length: scenario.n }, () => ({ attempt: 0 }));
	let active = 0;
	const send = (job) => {
		const sentAt = clock;
		let tries = 0;
		const attempt = () =>
			v.arrive((ok) => {
				if (!ok && ++tries < 3) return at(1000, attempt);
				active--;
				if (ok) limit.answered(sentAt, clock - sentAt);
				else {
					limit.refused(active);
					at(1000 * 2 ** job.attempt, () => (queue.unshift({ attempt: job.attempt + 1 }), pump()));
				}
				pump();
			});
		attempt();
	};
	const pump = () => {
		while (active < limit.current && queue.length > 0) (active++, limit.sent?.(active), send(queue.shift()));
	};
	clock = 0;
	pump();
	while (events.length > 0) {
		events.sort((a, b) => a.t - b.t || a.n - b.n);
		const e = events.shift();
		clock = e.t;
		e.f();
	}
	return { ms: clock, refused: v.refused, longestWaitMs: v.longestWaitMs, limit };
}

const SCENARIOS = [
	{ n: 200, T: 1000 },
	{ n: 2000, T: 1000 },
	{ n: 200, T: 3000 },
	{ n: 2000, T: 3000 },
	{ n: 2000, T: 1000, C: 50 },
	{ n: 2000, T: 1000, C: 50, over: '429' },
	{ n: 1000, T: 1000, C: 50, over: '429', start: 1000 },
	{ n: 200, T: 3000, C: 50 },
	{ n: 2000, T: 3000, C: 50 },
	{ n: 500, T: 3000, C: 5 },
	{ n: 500, T: 5000, C: 10 },
	{ n: 300, T: 1000, C: 1 },
	{ n: 200, T: 3000, C: 5, start: 200 },
	// warm: the same run again right after, starting at what the first taught the pace memory
	{ n: 200, T: 1000, warm: true },
	{ n: 2000, T: 1000, warm: true },
	{ n: 200, T: 3000, warm: true },
	{ n: 2000, T: 3000, warm: true },
	{ n: 2000, T: 1000, C: 50, warm: true },
	{ n: 2000, T: 1000, C: 50, over: '429', warm: true },
	// a stale memory: learned at a site taking 2,000 at 1 s, the site now holds few (load changed within 15 min)
	{ n: 200, T: 3000, C: 5, learnedFrom: { n: 2000, T: 1000 } },
	{ n: 500, T: 5000, C: 10, learnedFrom: { n: 2000, T: 1000 } },
	{ n: 2000, T: 1000, C: 50, over: '429', learnedFrom: { n: 2000, T: 1000 } },
];

/** The start the pace memory gives a run after `first` (the runner: never above the ceiling nor the run). */
function learnedStart(first, n) {
	memory.forgetPaces();
	memory.rememberPace('v', run(first, AdaptiveLimit).limit, 0);
	return Math.min(1000, memory.warmStart('v', 0), n);
}

const Limit = process.argv.includes('--old') ? OldLimit : AdaptiveLimit;
for (const scenario of SCENARIOS) {
	const learned =
		scenario.warm || scenario.learnedFrom ? learnedStart(scenario.learnedFrom ?? scenario, scenario.n) : 0;
	const s = learned ? { ...scenario, start: learned } : scenario;
	const r = run(s, Limit);
	const label =
		`${s.n} items, ${s.T / 1000} s` +
		(s.C < Infinity ? `, holds ${s.C} (${s.over ?? 'queue'})` : '') +
		(scenario.warm ? `, warm: ${s.start}` : '') +
		(scenario.learnedFrom ? `, start ${s.start} learned at ${s.learnedFrom.n} × ${s.learnedFrom.T / 1000} s` : '') +
		(scenario.start ? `, start ${s.start}` : '');
	const ratio = s.C < Infinity ? ` = ${((r.ms * s.C) / (s.n * s.T)).toFixed(2)}× the limit` : '';
	process.stdout.write(
		`${label.padEnd(42)} ${(r.ms / 1000).toFixed(1).padStart(6)} s${ratio}, ${r.refused} 429s, ` +
			`longest queue wait ${(r.longestWaitMs / 1000).toFixed(1)} s\n`,
	);
}
