/**
 * The server's clock. create_date carries no timezone: the offset of the server's naive clock from our
 * UTC clock is learned from every directly received record (create_date vs the local receive time).
 * After a restart it is rebuilt from the caller's claimed records (their createdAt vs when they were
 * sent, snapped to a 15-minute timezone with the Date header's clock). Until an offset is known and no
 * `serverUtcOffsetMinutes` is configured, any timezone (−12h..+14h) is allowed.
 */
import type { PurchaseResult } from '../types';
import type { PurchaseContext } from './context';

/** Two ASCII digits at i → 0..99, or -1. */
function digits2(s: string, i: number): number {
	const a = s.charCodeAt(i) - 48;
	const b = s.charCodeAt(i + 1) - 48;
	return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * The usual naive `YYYY-MM-DDTHH:MM:SS[.f{1,9}]` (what every record carries) without the regex below:
 * the same Date.UTC arguments, or NaN when the string has any other form (then the regex decides).
 */
function naiveMs(s: string): number {
	const n = s.length;
	if (n !== 19 && (n < 21 || n > 29)) return NaN;
	const t = s.charCodeAt(10);
	if (
		s.charCodeAt(4) !== 45 ||
		s.charCodeAt(7) !== 45 ||
		(t !== 84 && t !== 32) ||
		s.charCodeAt(13) !== 58 ||
		s.charCodeAt(16) !== 58
	)
		return NaN;
	const y1 = digits2(s, 0),
		y2 = digits2(s, 2),
		mo = digits2(s, 5),
		d = digits2(s, 8),
		h = digits2(s, 11),
		mi = digits2(s, 14),
		sec = digits2(s, 17);
	if (y1 < 0 || y2 < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0) return NaN;
	let ms = 0;
	if (n > 19) {
		if (s.charCodeAt(19) !== 46) return NaN;
		for (let i = 20; i < n; i++) {
			const c = s.charCodeAt(i) - 48;
			if (c < 0 || c > 9) return NaN;
			if (i < 23) ms += c * (i === 20 ? 100 : i === 21 ? 10 : 1); // first three digits, padded: ".5" → 500
		}
	}
	return Date.UTC(y1 * 100 + y2, mo - 1, d, h, mi, sec, ms);
}

/** create_date → ms. Naive strings are read as if UTC ("naive ms"); `absolute` tells which. */
export function parseCreateDate(s: string | null | undefined): { ms: number; absolute: boolean } | null {
	if (!s) return null;
	const fast = naiveMs(s);
	if (!Number.isNaN(fast)) return { ms: fast, absolute: false };
	const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(
		s.trim(),
	);
	if (!m) return null;
	const ms = Date.UTC(
		+m[1],
		+m[2] - 1,
		+m[3],
		+m[4],
		+m[5],
		+(m[6] ?? 0),
		Number((m[7] ?? '0').slice(0, 3).padEnd(3, '0')),
	);
	if (!m[8]) return { ms, absolute: false };
	if (m[8] === 'Z') return { ms, absolute: true };
	const sign = m[8][0] === '-' ? -1 : 1;
	const digits = m[8].slice(1).replace(':', '');
	const off = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
	return { ms: ms - off, absolute: true };
}

/** How coarse a create_date is (ms): a date shown to the second may be up to 999 ms later in truth. */
export function precisionMs(createdAt: string): number {
	const m = /[T ]\d{2}:\d{2}(:\d{2}(?:\.(\d+))?)?/.exec(createdAt);
	if (!m || !m[1]) return 60_000;
	return m[2] === undefined ? 1_000 : 10 ** Math.max(0, 3 - m[2].length);
}

/** A record received directly: its create_date against the POST's send and receive times. */
export function learnOffset(ctx: PurchaseContext, createdAt: string | null, sentAt: number, receivedAt: number): void {
	const p = parseCreateDate(createdAt);
	if (!p || p.absolute) return;
	const clock = ctx.account.clock;
	clock.offset = p.ms - receivedAt;
	const next = { lo: p.ms - receivedAt, hi: p.ms - sentAt + precisionMs(createdAt!), at: receivedAt };
	// every answer bounds the same offset: keep the tightest, the older bounds widened by their drift
	const prev = clock.bounds;
	if (prev) {
		const d = driftMs(receivedAt - prev.at);
		const lo = Math.max(next.lo, prev.lo - d);
		const hi = Math.min(next.hi, prev.hi + d);
		if (lo <= hi) Object.assign(next, { lo, hi }); // else a clock stepped: start again from this answer
	}
	clock.bounds = next;
}

/** Relative drift of two clocks allowed over `ageMs`: 100 ppm, at least 1 ms. */
function driftMs(ageMs: number): number {
	return 1 + Math.abs(ageMs) / 10_000;
}

/**
 * The tight window of a purchase, on the server's naive clock: its record was created after it was sent
 * (`sentAt`) and before `end` (the answer's arrival when the site answered, else the processing bound).
 * Null without bounds learned from a direct answer. Sound as long as neither clock steps: relative drift
 * is allowed at 100 ppm of the bounds' age (at least 1 ms).
 */
export function tightWindow(ctx: PurchaseContext, sentAt: number, end: number): { lo: number; hi: number } | null {
	const b = ctx.account.clock.bounds;
	if (!b || ctx.reconcile.serverUtcOffsetMinutes !== undefined) return null;
	const drift = driftMs(ctx.http.now() - b.at);
	return { lo: sentAt + b.lo - drift, hi: end + b.hi + drift };
}

/** Inside the tight window (a create_date shown coarser than the clock counts from its earliest true time). */
export function inTight(w: { lo: number; hi: number }, createdAt: string | null): boolean {
	const p = parseCreateDate(createdAt);
	if (!p || p.absolute) return true; // cannot exclude
	return p.ms + precisionMs(createdAt!) > w.lo && p.ms <= w.hi;
}

/**
 * After a restart: a record this account received directly (createdAt) and when its POST was sent
 * (sentAt) give naive − sentAt = timezone + clock skew + latency. The Date header gives the skew; the
 * timezone is snapped to 15 minutes, so any latency under 7.5 minutes gives the exact zone.
 */
export function learnZone(ctx: PurchaseContext, createdAt: string | null | undefined, sentAt: number): void {
	const skew = ctx.http.lastDateHeaderOffsetMs;
	const p = parseCreateDate(createdAt);
	if (skew === null || !p || p.absolute || ctx.account.clock.zone !== undefined) return;
	ctx.account.clock.zone = Math.round((p.ms - sentAt - skew) / 900_000) * 900_000;
}

export function knownOffset(ctx: PurchaseContext): number | null {
	const skew = ctx.http.lastDateHeaderOffsetMs;
	if (ctx.reconcile.serverUtcOffsetMinutes !== undefined)
		return ctx.reconcile.serverUtcOffsetMinutes * 60_000 + (skew ?? 0);
	const learned = ctx.account.clock.offset;
	if (learned !== undefined) return learned;
	const zone = ctx.account.clock.zone;
	return zone !== undefined && skew !== null ? zone + skew : null;
}

/**
 * The earliest create_date a record made at or after `sentAt` can carry, in the record's own terms
 * (absolute ms, or the server's naive clock; with no offset known, any timezone down to −12h).
 */
export function windowStart(ctx: PurchaseContext, sentAt: number, absolute: boolean): number {
	const skew = ctx.reconcile.skewMs;
	if (absolute) return sentAt - skew;
	return sentAt + (knownOffset(ctx) ?? -12 * 3_600_000) - skew;
}

export function inWindow(ctx: PurchaseContext, createdAt: string | null, sentAt: number, hi: number): boolean {
	const p = parseCreateDate(createdAt);
	if (!p) return true; // no date: cannot exclude by time
	if (p.ms < windowStart(ctx, sentAt, p.absolute)) return false;
	const skew = ctx.reconcile.skewMs;
	if (p.absolute) return p.ms <= hi + skew;
	return p.ms <= hi + (knownOffset(ctx) ?? 14 * 3_600_000) + skew;
}

/** Created before `sinceMs`, as far as its create_date tells (no date: not provably). */
export function before(ctx: PurchaseContext, r: PurchaseResult, sinceMs: number): boolean {
	return dateBefore(ctx, r.createdAt, sinceMs);
}

/** `before` for any dated row (wallet history rows too). */
export function dateBefore(ctx: PurchaseContext, createdAt: string | null, sinceMs: number): boolean {
	const p = parseCreateDate(createdAt);
	return p !== null && p.ms < windowStart(ctx, sinceMs, p.absolute);
}
