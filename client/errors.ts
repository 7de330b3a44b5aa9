/**
 * Typed errors with a stable `code` (stripe-node style). Messages say what happened and what to do.
 * The API token never appears in a message, `toJSON()`, `util.inspect()` or a log line: every string
 * that enters an error passes through `redact()`, and no raw transport/axios error is ever attached.
 */

/** util.inspect's hook by its registered name, so the core needs no node:util (n8n Cloud rules). */
export const inspectCustom: unique symbol = Symbol.for('nodejs.util.inspect.custom');

export type VtuErrorCode =
	| 'auth'
	| 'forbidden'
	| 'insufficient_balance'
	| 'invalid_input'
	| 'not_found'
	| 'rate_limited'
	| 'server'
	| 'bad_response'
	| 'network'
	| 'not_charged'
	| 'unknown_outcome';

/**
 * Error codes after which a purchase provably cost nothing: the site refused it, or it never left this
 * machine (a `network` error from a purchase is thrown only when the request provably was not sent).
 * The nodes release a Spend Cap reservation on them; the bot records the order as not charged.
 */
export const NOT_CHARGED_CODES: ReadonlySet<string> = new Set<VtuErrorCode>([
	'invalid_input',
	'insufficient_balance',
	'auth',
	'forbidden',
	'not_found',
	'rate_limited',
	'network',
	'not_charged',
]);

/** What to do about an HTTP 403 from the family's servers (the client's message, node errors, the credential test). */
export const FORBIDDEN_ADVICE =
	"Two usual causes: (1) the public IP address of the machine calling the API is not on the site's API IP whitelist " +
	'(pricing page): add it, or empty the list; (2) the account is not of type API: ask the site owner to make it user ' +
	'type API.';

const secrets = new Set<string>();

/**
 * Register a secret (an API token) so it is scrubbed from every error and log line. A token pasted with
 * spaces or a line break around it is sent trimmed, so both forms are registered.
 */
export function registerSecret(secret: unknown): void {
	if (typeof secret !== 'string') return;
	for (const s of [secret, secret.trim()]) if (s.length >= 4) secrets.add(s);
}

/**
 * A URL as a message may show it: any `user:password@` part removed (credentials never travel in a base
 * URL; see normalizeBaseUrl), then redacted. Works on text that is not a valid URL too.
 */
export function safeUrlText(url: string): string {
	return redact(url.replace(/^(\s*(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/*)[^/?#\s]*@/, '$1'));
}

const TOKEN_HEADER = /(Token|Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;

/** Remove every registered secret and anything that looks like an Authorization header value. */
export function redact(s: string): string {
	if (!s) return s;
	let out = s;
	for (const secret of secrets) {
		if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
	}
	return out.replace(TOKEN_HEADER, '$1 [REDACTED]');
}

/** Deep-redact a JSON-ish value (for `raw`, logs, candidates). Cheap for small values. */
export function redactValue<T>(v: T, depth = 0): T {
	if (typeof v === 'string') return redact(v) as unknown as T;
	if (depth > 8 || v === null || typeof v !== 'object') return v;
	if (Array.isArray(v)) return v.map((x) => redactValue(x, depth + 1)) as unknown as T;
	const out: Record<string, unknown> = {};
	for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
		if (/^(authorization|token|api[_-]?key|password|pin)$/i.test(k) && typeof x !== 'object') {
			out[k] = '[REDACTED]';
		} else out[k] = redactValue(x, depth + 1);
	}
	return out as T;
}

/** The levels a logger may have (client/util.ts Logger, repeated here: errors.ts imports nothing). */
type LogFn = (msg: string, meta?: Record<string, unknown>) => void;
type LoggerLike = { debug?: LogFn; info?: LogFn; warn?: LogFn; error?: LogFn };

/**
 * A logger whose every call is redacted (message and meta), with the same levels as the one given (a
 * missing level stays missing: callers skip work for it). Undefined stays undefined.
 */
export function redactingLogger<L extends LoggerLike>(logger: L | undefined): L | undefined {
	if (!logger) return undefined;
	const out: LoggerLike = {};
	for (const level of ['debug', 'info', 'warn', 'error'] as const) {
		const fn = logger[level];
		if (typeof fn !== 'function') continue;
		out[level] = (msg, meta) =>
			fn.call(logger, redact(String(msg)), meta === undefined ? undefined : redactValue(meta));
	}
	return out as L;
}

export interface VtuErrorOptions {
	httpStatus?: number;
	field?: string;
	serverMessage?: string;
	candidates?: unknown[];
	retryAfterMs?: number;
	/** For transport failures: whether the request may have reached the server. */
	mayHaveReachedServer?: boolean;
	/** Short snippet of an unparseable body. */
	snippet?: string;
	method?: string;
	path?: string;
	/** Extra structured detail (redacted). */
	details?: Record<string, unknown>;
}

export class VtuError extends Error {
	readonly code: VtuErrorCode;
	readonly httpStatus?: number;
	readonly field?: string;
	readonly serverMessage?: string;
	readonly candidates?: unknown[];
	readonly retryAfterMs?: number;
	readonly mayHaveReachedServer?: boolean;
	readonly snippet?: string;
	readonly method?: string;
	readonly path?: string;
	readonly details?: Record<string, unknown>;

	constructor(code: VtuErrorCode, message: string, opts: VtuErrorOptions = {}) {
		super(redact(message));
		this.name = new.target.name;
		this.code = code;
		if (opts.httpStatus !== undefined) this.httpStatus = opts.httpStatus;
		if (opts.field !== undefined) this.field = opts.field;
		if (opts.serverMessage !== undefined) this.serverMessage = redact(opts.serverMessage);
		if (opts.candidates !== undefined) this.candidates = redactValue(opts.candidates);
		if (opts.retryAfterMs !== undefined) this.retryAfterMs = opts.retryAfterMs;
		if (opts.mayHaveReachedServer !== undefined) this.mayHaveReachedServer = opts.mayHaveReachedServer;
		if (opts.snippet !== undefined) this.snippet = redact(opts.snippet);
		if (opts.method !== undefined) this.method = opts.method;
		if (opts.path !== undefined) this.path = redact(opts.path);
		if (opts.details !== undefined) this.details = redactValue(opts.details);
		if (this.stack) this.stack = redact(this.stack);
	}

	/** Seconds form, for convenience (rate_limited). */
	get retryAfter(): number | undefined {
		return this.retryAfterMs === undefined ? undefined : this.retryAfterMs / 1000;
	}

	toJSON(): Record<string, unknown> {
		const o: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
		for (const k of [
			'httpStatus',
			'field',
			'serverMessage',
			'candidates',
			'retryAfterMs',
			'mayHaveReachedServer',
			'snippet',
			'method',
			'path',
			'details',
		] as const) {
			if (this[k] !== undefined) o[k] = this[k];
		}
		return redactValue(o);
	}

	[inspectCustom](_depth: number, _options: unknown, inspect: (v: unknown, o?: object) => string): string {
		return `${this.name} [${this.code}]: ${this.message}\n${inspect(this.toJSON(), { depth: 4 })}`;
	}
}

type Opts = VtuErrorOptions;
export class VtuAuthError extends VtuError {
	constructor(m: string, o?: Opts) {
		super('auth', m, o);
	}
}
export class VtuForbiddenError extends VtuError {
	constructor(m: string, o?: Opts) {
		super('forbidden', m, o);
	}
}
export class VtuInsufficientBalanceError extends VtuError {
	constructor(m: string, o?: Opts) {
		super('insufficient_balance', m, o);
	}
}
export class VtuInvalidInputError extends VtuError {
	constructor(m: string, o?: Opts) {
		super('invalid_input', m, o);
	}
}
export class VtuNotFoundError extends VtuError {
	constructor(m: string, o?: Opts) {
		super('not_found', m, o);
	}
}
export class VtuRateLimitedError extends VtuError {
	constructor(m: string, o?: Opts) {
		super('rate_limited', m, o);
	}
}
export class VtuServerError extends VtuError {
	constructor(m: string, o?: Opts) {
		super('server', m, o);
	}
}
export class VtuBadResponseError extends VtuError {
	constructor(m: string, o?: Opts) {
		super('bad_response', m, o);
	}
}
export class VtuNetworkError extends VtuError {
	constructor(m: string, o?: Opts) {
		super('network', m, o);
	}
}
export class VtuNotChargedError extends VtuError {
	constructor(m: string, o?: Opts) {
		super('not_charged', m, o);
	}
}
export class VtuUnknownOutcomeError extends VtuError {
	constructor(m: string, o?: Opts) {
		super('unknown_outcome', m, o);
	}
}

/** A caller's value as a message shows it: text quoted, numbers as typed, never "[object Object]". */
export function shown(v: unknown): string {
	if (typeof v === 'string') return JSON.stringify(v);
	if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || v === null || v === undefined)
		return String(v);
	return Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
