/**
 * Fault injection: rules registered through the admin API, matched per request.
 * With no rules registered the check is a single length test, so benchmarks pay nothing.
 */
import type { Rng } from './rng';

export const FAULT_KINDS = [
	'latency',
	'rate_limit',
	'error_before',
	'timeout_after',
	'reset_after',
	'html_after',
	'flip_later',
	'slow',
	'refuse_field',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
	/** "POST /api/data/", "GET /api/data/:id", "POST *", or "*" (every /api request). Trailing slashes are ignored. */
	endpoint: string;
	kind: FaultKind;
	/** Chance (0..1) that a matching request is hit. Default 1. */
	probability?: number;
	/** Apply to the next n hits only; then the rule disappears. Default: unlimited. */
	count?: number;
	/**
	 * latency: delay; flip_later: delay before the flip; slow: when the vendor finishes the purchase (its
	 * answer, debit and record). Default 1000 ms for latency, 500 ms for flip_later, 60,000 ms for slow.
	 */
	latencyMs?: number;
	/** rate_limit: value of Retry-After and of the message. Default 1. */
	retryAfterSeconds?: number;
	/** error_before: 500 (Django's page, default) or a gateway's 502/503/504 page (proxy in front of a restarting app). */
	httpStatus?: 500 | 502 | 503 | 504;
	/**
	 * refuse_field: the body field the site refuses by name, as the site spells it ("mobile_number",
	 * "smart_card_number", "meter_number", "recetipient"); required for that kind.
	 */
	field?: string;
	/** refuse_field: the site's message about it. Default Django's "Enter a valid value.". */
	message?: string;
}

export interface Fault extends Required<Omit<FaultSpec, 'count'>> {
	id: number;
	/** Hits left, null = unlimited. */
	remaining: number | null;
	hits: number;
}

/** One applied fault, for chaos reports. Filled in after the request completes. */
export interface FaultLogEntry {
	seq: number;
	at: string;
	faultId: number;
	kind: FaultKind;
	/** The request it hit, e.g. "POST /api/data/". */
	request: string;
	username: string | null;
	/** HTTP status sent to the client; null when no response was sent (timeout_after, reset_after). */
	httpStatus: number | null;
	/** Set when a purchase record was created under the fault. */
	product: string | null;
	txnId: number | null;
	ident: string | null;
	/** What the wallet was charged by that record (0 when nothing was debited). */
	debitedKobo: number;
}

interface Matcher {
	method: string;
	segs: string[] | null;
}

/** Django's own message of a field validator (RegexValidator), the refuse_field default. */
const REFUSED_DEFAULT = 'Enter a valid value.';

const defaultMs = (kind: FaultKind): number => (kind === 'latency' ? 1000 : kind === 'slow' ? 60_000 : 500);

const norm = (p: string): string => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);

function parseEndpoint(endpoint: string): Matcher {
	const e = endpoint.trim();
	if (e === '*') return { method: '*', segs: null };
	const [method, path = '*'] = e.split(/\s+/, 2);
	return { method: method.toUpperCase(), segs: path === '*' ? null : norm(path).split('/') };
}

/** Segment match: ":x" matches one segment, a final "*" the rest. */
function pathMatches(segs: string[] | null, path: string): boolean {
	if (!segs) return true;
	const parts = norm(path).split('/');
	for (let i = 0; i < segs.length; i++) {
		if (segs[i] === '*') return true;
		if (i >= parts.length) return false;
		if (segs[i].startsWith(':') ? parts[i] === '' : segs[i] !== parts[i]) return false;
	}
	return parts.length === segs.length;
}

export class FaultBook {
	rules: Array<Fault & { m: Matcher }> = [];
	log: FaultLogEntry[] = [];
	private nextId = 1;

	add(spec: FaultSpec): Fault {
		const f = {
			id: this.nextId++,
			endpoint: spec.endpoint,
			kind: spec.kind,
			probability: spec.probability ?? 1,
			remaining: spec.count ?? null,
			latencyMs: spec.latencyMs ?? defaultMs(spec.kind),
			retryAfterSeconds: spec.retryAfterSeconds ?? 1,
			httpStatus: spec.httpStatus ?? 500,
			field: spec.field ?? '',
			message: spec.message ?? REFUSED_DEFAULT,
			hits: 0,
			m: parseEndpoint(spec.endpoint),
		};
		this.rules.push(f);
		return this.view(f);
	}

	list(): Fault[] {
		return this.rules.map((f) => this.view(f));
	}

	remove(id: number): boolean {
		const n = this.rules.length;
		this.rules = this.rules.filter((f) => f.id !== id);
		return this.rules.length !== n;
	}

	clear(): void {
		this.rules = [];
	}

	reset(): void {
		this.rules = [];
		this.log = [];
		this.nextId = 1;
	}

	/** The first rule that matches and wins its probability roll; logs it and spends one of its count. */
	pick(method: string, path: string, rng: Rng): { fault: Fault; entry: FaultLogEntry } | null {
		if (this.rules.length === 0) return null;
		for (const f of this.rules) {
			if (f.m.method !== '*' && f.m.method !== method) continue;
			if (!pathMatches(f.m.segs, path)) continue;
			if (f.probability < 1 && rng.float() >= f.probability) continue;
			f.hits++;
			if (f.remaining !== null && --f.remaining <= 0) this.remove(f.id);
			return { fault: this.view(f), entry: this.logHit(f, method, path) };
		}
		return null;
	}

	/**
	 * A fault asked for by the request itself (header `X-Sandbox-Fault: <kind>[:<n>]`, n = latencyMs or
	 * Retry-After seconds), when the admin switch `request_faults` is on: it hits exactly that request, so
	 * concurrent chaos actors never catch each other's faults. Logged like a rule's (faultId 0).
	 */
	fromHeader(value: string, method: string, path: string): { fault: Fault; entry: FaultLogEntry } | null {
		const [kind, n] = value.split(':');
		// refuse_field needs its field: a rule only
		if (!(FAULT_KINDS as readonly string[]).includes(kind) || kind === 'refuse_field') return null;
		const num = n !== undefined && /^\d{1,6}$/.test(n) ? Number(n) : undefined;
		const f: Fault = {
			id: 0,
			endpoint: `${method} ${path}`,
			kind: kind as FaultKind,
			probability: 1,
			remaining: null,
			hits: 1,
			latencyMs: kind === 'latency' || kind === 'flip_later' || kind === 'slow' ? (num ?? defaultMs(kind)) : 500,
			retryAfterSeconds: kind === 'rate_limit' ? (num ?? 1) : 1,
			httpStatus: 500,
			field: '',
			message: REFUSED_DEFAULT,
		};
		return { fault: f, entry: this.logHit(f, method, path) };
	}

	private logHit(f: Fault, method: string, path: string): FaultLogEntry {
		const entry: FaultLogEntry = {
			seq: this.log.length + 1,
			at: new Date().toISOString(),
			faultId: f.id,
			kind: f.kind,
			request: `${method} ${path}`,
			username: null,
			httpStatus: null,
			product: null,
			txnId: null,
			ident: null,
			debitedKobo: 0,
		};
		this.log.push(entry);
		return entry;
	}

	private view(f: Fault & { m?: Matcher }): Fault {
		const { m: _m, ...rest } = f;
		return rest;
	}
}
