/**
 * HTTP core: headers, URL rules, retries (never-sent requests and 429 always; timeouts, resets and
 * 502/503/504 for reads that are safe to repeat), JSON parsing and error classification from status +
 * body. Everything the token touches stays in this file's closure.
 */
import {
	VtuAuthError,
	VtuBadResponseError,
	VtuError,
	VtuForbiddenError,
	VtuInsufficientBalanceError,
	VtuInvalidInputError,
	VtuNetworkError,
	VtuNotFoundError,
	VtuRateLimitedError,
	VtuServerError,
	FORBIDDEN_ADVICE,
	inspectCustom,
	redact,
	redactValue,
	registerSecret,
	safeUrlText,
	shown,
} from './errors';
import { FIELD_BY_WIRE } from './products/registry';
import { TransportError, type HttpMethod, type Transport, type TransportResponse } from './transport';
import type { Clock, Sleep } from './runtime';
import { isRecord, snippet, type Logger } from './util';

export interface RetryOptions {
	/**
	 * Total attempts including the first. Every request retries when it provably never left (refused, DNS)
	 * and on 429; a repeatable read (`RequestOptions.repeatable`, default: GET) also on timeout, reset and
	 * 502/503/504. Default 3.
	 */
	maxAttempts?: number;
	/** Largest wait honoured for Retry-After / backoff. A longer Retry-After → rate_limited. Default 10000. */
	maxDelayMs?: number;
}

/** Gateway answers that say "try again": the request did nothing (a proxy or a restarting app). */
const RETRYABLE_STATUS = new Set([502, 503, 504]);
/** First backoff step; doubled per attempt, capped at maxDelayMs. */
const BACKOFF_BASE_MS = 200;

export interface HttpCoreOptions {
	baseUrl: string;
	token: string;
	transport: Transport;
	sleep: Sleep;
	now: Clock;
	timeoutMs: number;
	logger?: Logger;
	retry?: RetryOptions;
}

export interface RequestOptions {
	query?: Record<string, string>;
	body?: unknown;
	/** `body` already serialised with JSON.stringify (then `body` is not serialised again). */
	json?: string;
	signal?: AbortSignal;
	timeoutMs?: number;
	/**
	 * Safe to send again after a timeout, a reset or a 502/503/504 (default: true for GET, false
	 * otherwise). A GET that costs money (BVN/NIN lookups) passes false: a repeat is a second charge.
	 */
	repeatable?: boolean;
}

export interface RawResponse {
	status: number;
	headers: TransportResponse['headers'];
	body: string;
	sentAt: number;
	receivedAt: number;
}

/**
 * Normalise a base URL: no trailing "/", no trailing "/api". A URL with a user name or password is refused:
 * the API is reached with the token only, and credentials in a URL end up in logs and error messages.
 * Messages never show the credentials part.
 */
export function normalizeBaseUrl(baseUrl: string): string {
	let b = typeof baseUrl === 'string' ? baseUrl.trim() : '';
	if (!/^https?:\/\//i.test(b)) {
		const typed = typeof baseUrl === 'string' ? JSON.stringify(safeUrlText(b)) : shown(baseUrl);
		throw new VtuInvalidInputError(`baseUrl ${typed} must start with http:// or https://, e.g. https://example.com`, {
			field: 'baseUrl',
		});
	}
	let u: URL;
	try {
		u = new URL(b);
	} catch {
		throw new VtuInvalidInputError(
			`baseUrl ${JSON.stringify(safeUrlText(b))} is not a valid web address: type the site's address, e.g. ` +
				`https://example.com`,
			{ field: 'baseUrl' },
		);
	}
	if (u.username || u.password) {
		throw new VtuInvalidInputError(
			`baseUrl must not contain a user name or password (the "user:password@" part): the site is reached with the API ` +
				`token only. Type just the address, e.g. ${u.protocol}//${u.host}`,
			{ field: 'baseUrl' },
		);
	}
	b = b.replace(/\/+$/, '');
	b = b.replace(/\/api$/i, '');
	return b;
}

/**
 * Request headers carrying the Authorization value, as a plain object the transports read as usual, but
 * printing as "Token [REDACTED]" through util.inspect / console.log and JSON.stringify.
 */
function authHeaders(auth: string, extra: Record<string, string>): Record<string, string> {
	const h: Record<string, string> = { Authorization: auth, ...extra };
	const shownAs = () => ({ ...h, Authorization: 'Token [REDACTED]' });
	Object.defineProperty(h, 'toJSON', { value: shownAs, enumerable: false });
	Object.defineProperty(h, inspectCustom, { value: shownAs, enumerable: false });
	return h;
}

function header(h: TransportResponse['headers'], name: string): string | undefined {
	const v = h[name] ?? h[name.toLowerCase()];
	return Array.isArray(v) ? v[0] : v;
}

export function parseRetryAfter(h: TransportResponse['headers'], body?: unknown): number | undefined {
	const ra = header(h, 'retry-after');
	if (ra !== undefined) {
		const n = Number(ra);
		if (Number.isFinite(n)) return Math.max(0, n * 1000);
		const d = Date.parse(ra);
		if (!Number.isNaN(d)) return Math.max(0, d - Date.now());
	}
	if (isRecord(body) && typeof body.detail === 'string') {
		const m = /(\d+(?:\.\d+)?)\s*second/i.exec(body.detail);
		if (m) return Number(m[1]) * 1000;
	}
	return undefined;
}

/** Is this body an HTML page (Django error page, proxy page, login page)? */
export function looksLikeHtml(body: string, contentType?: string): boolean {
	if (contentType && /text\/html/i.test(contentType)) return true;
	return /^\s*<(?:!doctype|html|head|body|\?xml)/i.test(body);
}

export function tryParseJson(body: string): { ok: true; value: unknown } | { ok: false } {
	const s = body.trim();
	if (s === '') return { ok: true, value: undefined };
	try {
		return { ok: true, value: JSON.parse(s) };
	} catch {
		return { ok: false };
	}
}

/** Extract the human message and the offending field of a 4xx body (all family shapes). */
export function extractServerMessage(body: unknown): { message: string; field?: string } {
	if (typeof body === 'string') return { message: body };
	if (Array.isArray(body)) return { message: body.map(String).join('; ') };
	if (!isRecord(body)) return { message: '' };
	const pick = (v: unknown): string =>
		Array.isArray(v)
			? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('; ')
			: typeof v === 'string'
				? v
				: v == null
					? ''
					: JSON.stringify(v);
	for (const k of ['error', 'errors', 'detail', 'message', 'msg', 'non_field_errors']) {
		if (body[k] !== undefined && body[k] !== null && pick(body[k]).trim() !== '')
			return { message: pick(body[k]).trim() };
	}
	// DRF field errors: {"plan": ["Invalid pk ..."]}
	for (const [k, v] of Object.entries(body)) {
		if (Array.isArray(v) && v.every((x) => typeof x === 'string'))
			return { message: `${k}: ${v.join('; ')}`, field: k };
	}
	return { message: JSON.stringify(body).slice(0, 300) };
}

/**
 * Classify a non-2xx (or unusable 2xx) response. Returns the VtuError to throw.
 * `ambiguous` tells the purchase layer the outcome is unknown (5xx, HTML, unparseable).
 */
export function classifyResponse(
	method: string,
	path: string,
	status: number,
	headers: TransportResponse['headers'],
	body: string,
): VtuError {
	const ct = header(headers, 'content-type');
	const html = looksLikeHtml(body, ct);
	const parsed = html ? { ok: false as const } : tryParseJson(body);
	const json = parsed.ok ? parsed.value : undefined;
	const base = { httpStatus: status, method, path };
	const srv = parsed.ok ? extractServerMessage(json) : { message: '' };
	const quoted = srv.message ? `: "${srv.message}"` : '';

	if (status === 401) {
		return new VtuAuthError(
			`The API token was rejected (HTTP 401${quoted}). Copy the token again from the site's API/documentation page (it ` +
				`may have been reset) and send it as "Authorization: Token …".`,
			{ ...base, serverMessage: srv.message },
		);
	}
	if (status === 403) {
		return new VtuForbiddenError(`Access denied (HTTP 403${quoted}). ${FORBIDDEN_ADVICE}`, {
			...base,
			serverMessage: srv.message,
		});
	}
	if (status === 429) {
		const retryAfterMs = parseRetryAfter(headers, json);
		return new VtuRateLimitedError(
			`Rate limited by the server (HTTP ` +
				`429${quoted})${retryAfterMs !== undefined ? `; retry after ${Math.ceil(retryAfterMs / 1000)}s` : ''}. Slow down ` +
				`or lower the concurrency.`,
			{ ...base, serverMessage: srv.message, retryAfterMs },
		);
	}
	if (status === 404) {
		return new VtuNotFoundError(
			`Not found (HTTP 404) for ${method} ${path}${quoted}. The record does not exist or belongs to another account, or ` +
				`the site does not offer this endpoint.`,
			// Django's own page (html) or nothing (empty): no view matched the URL; json: a view answered
			{
				...base,
				serverMessage: srv.message,
				details: { answer: html ? 'html' : parsed.ok ? 'json' : body.trim() ? 'text' : 'empty' },
			},
		);
	}
	if (status >= 500 || html) {
		return new VtuServerError(
			`The server failed (HTTP ${status}${html ? ', HTML error page' : ''}) on ${method} ${path}${quoted}. The vendor's ` +
				`site may be down or this build may not support the request.`,
			{ ...base, serverMessage: srv.message || undefined, snippet: snippet(body) },
		);
	}
	if (status >= 300 && status < 400) {
		const loc = header(headers, 'location');
		return new VtuBadResponseError(
			`The server redirected ${method} ${path} (HTTP ${status}${loc ? ` to ${loc}` : ''}); redirects are not followed ` +
				`so a purchase is never repeated as a GET. Check the base URL (http vs https, www) and the trailing slash.`,
			base,
		);
	}
	if (status === 400 || status === 422 || (status >= 400 && status < 500 && parsed.ok && json !== undefined)) {
		return refusalError({ base, body, parsed: parsed.ok, srv, quoted });
	}
	return new VtuBadResponseError(
		`Unexpected HTTP ${status} from ${method} ${path}: ${snippet(body) || '(empty body)'}`,
		{ ...base, snippet: snippet(body) },
	);
}

/** A 4xx the site answered in JSON: it refused the request (nothing charged), for want of money or of input. */
function refusalError(a: {
	base: { httpStatus: number; method: string; path: string };
	body: string;
	parsed: boolean;
	srv: { message: string; field?: string };
	quoted: string;
}): VtuError {
	const { base, srv, quoted } = a;
	const { httpStatus: status, method, path } = base;
	if (!a.parsed) {
		return new VtuBadResponseError(`Unreadable ${status} answer to ${method} ${path}: ${snippet(a.body)}`, {
			...base,
			snippet: snippet(a.body),
		});
	}
	if (/insufficien/i.test(srv.message)) {
		return new VtuInsufficientBalanceError(
			`Insufficient wallet balance${quoted}. Fund the wallet and try again; nothing was charged.`,
			{ ...base, serverMessage: srv.message },
		);
	}
	const field = srv.field ? (FIELD_BY_WIRE[srv.field] ?? srv.field) : undefined;
	return new VtuInvalidInputError(
		`The server refused the request (HTTP ${status}${quoted}). Nothing was charged; fix the input and try again.`,
		{ ...base, serverMessage: srv.message, field },
	);
}

export class HttpCore {
	readonly baseUrl: string;
	/** The token lives only in these two objects, in private fields: never shown by inspect or JSON. */
	readonly #headersGet: Record<string, string>;
	readonly #headersPost: Record<string, string>;
	private readonly transport: Transport;
	/** The host's timer and clock (injected: the core uses no timer globals). */
	readonly sleep: Sleep;
	readonly now: Clock;
	readonly timeoutMs: number;
	readonly logger?: Logger;
	readonly maxAttempts: number;
	readonly maxDelayMs: number;
	/** Observed clock information, shared with purchase reconciliation. */
	lastDateHeaderOffsetMs: number | null = null;
	private lastDate = '';
	private lastDateMs = NaN;

	constructor(opts: HttpCoreOptions) {
		// first, so that a token pasted into a wrong base URL is already redacted in that URL's error
		registerSecret(opts.token);
		this.baseUrl = normalizeBaseUrl(opts.baseUrl);
		const token = typeof opts.token === 'string' ? opts.token.trim() : '';
		if (!token) {
			throw new VtuInvalidInputError("token is required: copy it from the site's API/documentation page.", {
				field: 'token',
			});
		}
		if (/[\s\p{Cc}]/u.test(token)) {
			throw new VtuInvalidInputError(
				"token has spaces or line breaks inside it: copy it again from the site's API/documentation page (one word of " +
					'letters and digits).',
				{ field: 'token' },
			);
		}
		const auth = `Token ${token}`;
		this.#headersGet = authHeaders(auth, { Accept: 'application/json' });
		this.#headersPost = authHeaders(auth, { Accept: 'application/json', 'Content-Type': 'application/json' });
		this.transport = opts.transport;
		this.sleep = opts.sleep;
		this.now = opts.now;
		this.timeoutMs = opts.timeoutMs;
		this.logger = opts.logger;
		this.maxAttempts = Math.max(1, opts.retry?.maxAttempts ?? 3);
		this.maxDelayMs = opts.retry?.maxDelayMs ?? 10_000;
	}

	/** What console.log / util.inspect show: where it sends, never the headers. */
	[inspectCustom](): string {
		return `HttpCore { baseUrl: ${JSON.stringify(this.baseUrl)}, timeoutMs: ${this.timeoutMs} }`;
	}

	toJSON(): Record<string, unknown> {
		return { baseUrl: this.baseUrl, timeoutMs: this.timeoutMs };
	}

	private log(level: keyof Logger, msg: string, meta?: Record<string, unknown>): void {
		const fn = this.logger?.[level];
		if (!fn) return;
		try {
			fn.call(this.logger, redact(msg), meta ? redactValue(meta) : undefined);
		} catch {
			/* a logger must never break a purchase */
		}
	}

	/** Capped exponential backoff with jitter, so retrying clients do not return in lockstep. */
	private backoffMs(attempt: number): number {
		const cap = Math.min(this.maxDelayMs, BACKOFF_BASE_MS * 2 ** (attempt - 1));
		return Math.round(cap / 2 + Math.random() * (cap / 2));
	}

	/**
	 * Send a request. Retries automatically when the request provably never reached the server
	 * (connection refused, DNS), on 429 (honouring Retry-After, capped), and for a repeatable request
	 * (`opts.repeatable`, default GET) on timeout, reset and 502/503/504. A purchase POST is never
	 * repeated after it may have left. Returns the raw response whatever its status; throws
	 * VtuNetworkError (with mayHaveReachedServer) on transport failure.
	 */
	async send(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<RawResponse> {
		const url = this.baseUrl + path;
		const headers = method === 'GET' ? this.#headersGet : this.#headersPost;
		const body = opts.json ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
		const repeatable = opts.repeatable ?? method === 'GET';
		// a read that timed out is sent again with twice the time: the server (or this machine) is slower than configured
		let timeoutMs = opts.timeoutMs ?? this.timeoutMs;
		let attempt = 0;
		for (;;) {
			attempt++;
			const sentAt = this.now();
			let res: TransportResponse;
			try {
				res = await this.transport({ method, url, headers, query: opts.query, body, timeoutMs, signal: opts.signal });
			} catch (e) {
				const te = e instanceof TransportError ? e : new TransportError('other', 'transport failed');
				const never = !te.mayHaveReachedServer;
				this.log('warn', `${method} ${path} failed: ${te.kind}`, {
					attempt,
					mayHaveReachedServer: te.mayHaveReachedServer,
				});
				if (
					(never || (repeatable && te.kind !== 'aborted')) &&
					attempt < this.maxAttempts &&
					(await this.pause(this.backoffMs(attempt), opts.signal))
				) {
					if (te.kind === 'timeout') timeoutMs *= 2;
					continue;
				}
				throw new VtuNetworkError(
					never
						? `Could not reach ${this.baseUrl} (${te.kind}); the request was never sent. Check the base URL and that the ` +
							`site is up.`
						: te.kind === 'timeout'
							? `No answer from ${this.baseUrl} within ${timeoutMs} ms for ${method} ` +
								`${path}${repeatable && attempt > 1 ? ` (${attempt} attempts)` : ''}; the request may have reached the ` +
								`server.`
							: `The connection to ${this.baseUrl} failed (${te.kind}) during ${method} ` +
								`${path}${repeatable && attempt > 1 ? ` (${attempt} attempts)` : ''}; the request may have reached the ` +
								`server.`,
					{
						method,
						path,
						mayHaveReachedServer: te.mayHaveReachedServer,
						details: { kind: te.kind, attempts: attempt },
					},
				);
			}
			const receivedAt = this.now();
			const date = header(res.headers, 'date');
			if (date) {
				// the Date header changes once a second: parse each distinct value once
				if (date !== this.lastDate) {
					this.lastDate = date;
					this.lastDateMs = Date.parse(date);
				}
				if (!Number.isNaN(this.lastDateMs)) this.lastDateHeaderOffsetMs = this.lastDateMs - receivedAt;
			}
			if (this.logger?.debug)
				this.log('debug', `${method} ${path} → ${res.status}`, { ms: receivedAt - sentAt, attempt });
			if (res.status === 429 && attempt < this.maxAttempts) {
				const parsed = tryParseJson(res.body);
				const ra =
					parseRetryAfter(res.headers, parsed.ok ? parsed.value : undefined) ??
					Math.min(this.maxDelayMs, 500 * 2 ** (attempt - 1));
				if (ra <= this.maxDelayMs) {
					this.log('warn', `${method} ${path} rate limited; retrying in ${ra} ms`, { attempt });
					if (await this.pause(ra, opts.signal)) continue;
					/* aborted: return the 429 */
				}
			} else if (repeatable && RETRYABLE_STATUS.has(res.status) && attempt < this.maxAttempts) {
				this.log('warn', `${method} ${path} → ${res.status}; retrying`, { attempt });
				if (await this.pause(this.backoffMs(attempt), opts.signal)) continue;
			}
			return { status: res.status, headers: res.headers, body: res.body, sentAt, receivedAt };
		}
	}

	/** Wait before a retry; false when the caller aborted (then no retry). */
	private async pause(ms: number, signal?: AbortSignal): Promise<boolean> {
		if (signal?.aborted) return false;
		try {
			await this.sleep(ms, signal);
			return true;
		} catch {
			return false;
		}
	}

	/** Parse a 2xx JSON body or throw the classified error. */
	parse(method: string, path: string, res: RawResponse): unknown {
		if (res.status >= 200 && res.status < 300) {
			const ct = header(res.headers, 'content-type');
			if (looksLikeHtml(res.body, ct)) {
				throw new VtuBadResponseError(
					`Expected JSON from ${method} ${path} but got an HTML page (HTTP ${res.status}): ${snippet(res.body, 120)}. ` +
						`Check the base URL (it must be the site's root, e.g. https://example.com).`,
					{ httpStatus: res.status, method, path, snippet: snippet(res.body) },
				);
			}
			const p = tryParseJson(res.body);
			if (!p.ok) {
				throw new VtuBadResponseError(
					`Unparseable JSON from ${method} ${path} (HTTP ${res.status}): ${snippet(res.body, 120)}`,
					{ httpStatus: res.status, method, path, snippet: snippet(res.body) },
				);
			}
			return p.value;
		}
		throw classifyResponse(method, path, res.status, res.headers, res.body);
	}

	async get(path: string, opts: RequestOptions = {}): Promise<unknown> {
		const res = await this.send('GET', path, opts);
		return this.parse('GET', path, res);
	}

	async post(path: string, body: unknown, opts: RequestOptions = {}): Promise<unknown> {
		const res = await this.send('POST', path, { ...opts, body });
		return this.parse('POST', path, res);
	}
}
