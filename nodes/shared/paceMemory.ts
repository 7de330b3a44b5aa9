/**
 * The pace a run reached cleanly, remembered per vendor in this n8n process, so the next run to the same site
 * (a schedule, the next sheet) starts there instead of at START_CONCURRENCY. Linux's tcp_metrics keeps a
 * destination's ssthresh the same way, but still starts each connection small; here the start itself is the
 * learned level, since a ramp step costs a whole vendor answer time (1–5 s), not a network round trip. Keyed
 * by the credential's base URL origin (scheme, host and port: never the token, the path or user info in the
 * URL). One process learns for itself: in queue mode each
 * worker has its own memory (a worker's first run to a site starts cold).
 *
 * Safety: only a level reached without strain is remembered (AdaptiveLimit.learned: never more than the next
 * step from what the site held); a run that saw strain (a cut) lowers the memory to where its last cut left
 * the limit, and a clean run never lowers it (a small run says nothing about what the site takes). The start
 * is never above the Concurrency ceiling nor the run's size, and every cut rule applies from the first answer.
 */
import { AdaptiveLimit } from './concurrency';

/**
 * How long a learned pace holds without a run to that site: 15 minutes. A schedule every 5–15 minutes and
 * the next sheet of the same session stay warm; past that the site's load (its other customers, the telco
 * behind it) may have changed, and a cold start costs only a few answer times (tcp_metrics keeps an hour;
 * a small web server's load moves faster than a route's).
 */
export const PACE_MEMORY_TTL_MS = 15 * 60_000;
/** The most sites remembered (the least recently run is forgotten first): a process talks to a handful. */
export const PACE_MEMORY_MAX = 256;

interface Learned {
	level: number;
	at: number;
}

const paces = new Map<string, Learned>();
/** Runs going to each site right now in this process (two executions at once share one learned pace). */
const running = new Map<string, number>();

/** The memory's key for a credential's base URL: its origin only, undefined when it is not a URL. */
export function paceKey(baseUrl: string): string | undefined {
	try {
		const origin = new URL(baseUrl.trim()).origin;
		return origin === 'null' ? undefined : origin;
	} catch {
		return undefined;
	}
}

/** The pace to start a run at against `key` (undefined: nothing learned, or it expired). */
export function warmStart(key: string | undefined, now = Date.now()): number | undefined {
	if (key === undefined) return undefined;
	const m = paces.get(key);
	if (!m) return undefined;
	if (now - m.at > PACE_MEMORY_TTL_MS) {
		paces.delete(key);
		return undefined;
	}
	return m.level;
}

/**
 * A run against `key` begins: its warm start, if any, is the learned pace split between it and the runs already
 * going to that site (the pace was learned by one run alone: two executions at once must not each send it
 * all), never below the cold start. Call `endRun` when the run is over.
 */
export function beginRun(key: string | undefined, coldStart: number, now = Date.now()): number | undefined {
	if (key === undefined) return undefined;
	const others = running.get(key) ?? 0;
	running.set(key, others + 1);
	const level = warmStart(key, now);
	if (level === undefined) return undefined;
	return Math.max(Math.min(level, coldStart), Math.floor(level / (others + 1)));
}

export function endRun(key: string | undefined): void {
	if (key === undefined) return;
	const n = (running.get(key) ?? 1) - 1;
	if (n > 0) running.set(key, n);
	else running.delete(key);
}

/** After a run against `key`: learn what its pace reached (see the module comment for the rules). */
export function rememberPace(key: string | undefined, limit: AdaptiveLimit, now = Date.now()): void {
	const level = limit.learned();
	if (key === undefined || level === undefined) return;
	const before = warmStart(key, now);
	const next = limit.cuts > 0 ? Math.min(before ?? level, level) : Math.max(before ?? 0, level);
	paces.delete(key); // inserted again: the Map's order is the least recently run first
	paces.set(key, { level: Math.max(1, Math.floor(next)), at: now });
	while (paces.size > PACE_MEMORY_MAX) paces.delete(paces.keys().next().value as string);
}

/** Forget every learned pace (tests). */
export function forgetPaces(): void {
	paces.clear();
	running.clear();
}

/** The keys remembered, least recently run first (tests: what is stored). */
export function rememberedKeys(): string[] {
	return [...paces.keys()];
}
