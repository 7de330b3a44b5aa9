/**
 * The request pipeline shared by every /api route: fault rules, DRF-style token auth,
 * the seed's 403 rules (API user type, IP whitelist), then the route's handler, whose
 * result (`Out`) is sent here. Handlers are plain synchronous functions of `Ctx`.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Body, Form } from './form';
import type { Fault, FaultLogEntry } from './faults';
import type { Dialect, SandboxState, Status, Txn, User } from './state';

/** What a handler answers. Exactly one of body / json (pre-serialised) / raw / html / empty is used. */
export interface Out {
	status: number;
	body?: unknown;
	json?: string;
	/** JSON already encoded as UTF-8 (cached answers: no per-request length count or encoding). */
	raw?: Buffer;
	html?: string;
	empty?: boolean;
	headers?: Record<string, string>;
	/** The record a purchase created, for fault bookkeeping. */
	txn?: Txn;
	/**
	 * A slow vendor: the purchase is accepted but only finishes (debit + record) after `ms`; `commit` does
	 * it then and gives the answer. Set by purchase handlers when `ctx.slowMs` > 0.
	 */
	deferred?: { ms: number; commit: () => Out };
}

export interface Ctx<U extends User | null = User> {
	req: FastifyRequest;
	user: U;
	state: SandboxState;
	dialect: Dialect;
	body: Body;
	query: Record<string, string | undefined>;
	/** Set by the flip_later fault: the purchase must answer successful whatever the settle mode. */
	forceStatus?: Status;
	/** Slow vendor (config slow_vendor or the `slow` fault): the purchase finishes this many ms after the POST. */
	slowMs?: number;
}

/** Shared by the routes and close(): sockets held open by timeout_after, purchase slots. */
export interface Runtime {
	state: SandboxState;
	held: Set<Socket>;
	capacity: Capacity;
}

/**
 * The vendor's capacity (admin config `max_in_flight`): at most N purchases (POSTs) in flight; the ones
 * beyond it QUEUE (first come, first served) until a slot frees, so an overloaded vendor gets slower, as
 * real ones do, instead of failing requests. null = unlimited.
 */
export class Capacity {
	inFlight = 0;
	peak = 0;
	/** Purchases that had to wait for a slot, since start / reset. */
	queuedTotal = 0;
	/** Most purchases waiting for a slot at once, since start / reset. */
	peakQueued = 0;
	/** Purchases refused for want of a slot (config over_capacity), since start / reset. */
	refusedTotal = 0;
	private waiting: Array<() => void> = [];

	get queued(): number {
		return this.waiting.length;
	}

	/** Take a slot if one is free (synchronously); false when the purchase must queue. */
	tryAcquire(max: number | null): boolean {
		if (max !== null && this.inFlight >= max) return false;
		this.inFlight++;
		this.peak = Math.max(this.peak, this.inFlight);
		return true;
	}

	async acquire(max: number | null): Promise<void> {
		if (this.tryAcquire(max)) return;
		this.queuedTotal++;
		this.peakQueued = Math.max(this.peakQueued, this.waiting.length + 1);
		// the releasing request hands its slot over: inFlight stays the same
		await new Promise<void>((r) => this.waiting.push(r));
	}

	release(): void {
		const next = this.waiting.shift();
		if (next) next();
		else this.inFlight--;
	}

	resetStats(): void {
		this.peak = this.inFlight;
		this.queuedTotal = 0;
		this.refusedTotal = 0;
		this.peakQueued = this.waiting.length;
	}
}

// ---------------------------------------------------------------- canned answers (Django/DRF look-alikes)

export const SERVER_ERROR_HTML =
	'<!doctype html>\n<html lang="en">\n<head>\n  <title>Server Error (500)</title>\n</head>\n<body>\n  <h1>Server ' +
	'Error (500)</h1><p></p>\n</body>\n</html>\n';
export const NOT_FOUND_HTML =
	'<!doctype html>\n<html lang="en">\n<head>\n  <title>Not Found</title>\n</head>\n<body>\n  <h1>Not Found</h1><p>The ' +
	'requested resource was not found on this server.</p>\n</body>\n</html>\n';

export const html500 = (): Out => ({ status: 500, html: SERVER_ERROR_HTML });
const GATEWAY_TITLES = new Map<number, string>([
	[502, 'Bad Gateway'],
	[503, 'Service Temporarily Unavailable'],
	[504, 'Gateway Time-out'],
]);
/** Django's 500 page, or the nginx page a proxy sends for 502/503/504 while the app behind it is down. */
export const errorPage = (status: number): Out =>
	GATEWAY_TITLES.has(status)
		? {
				status,
				html:
					`<html>\r\n<head><title>${status} ` +
					`${GATEWAY_TITLES.get(status)}</title></head>\r\n<body>\r\n<center><h1>${status} ` +
					`${GATEWAY_TITLES.get(status)}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
			}
		: html500();
/** Django's 404 page: a route this site does not have. */
export const notFoundPage = (): Out => ({ status: 404, html: NOT_FOUND_HTML });
/** Someone else's or unknown id. */
export const notFoundEmpty = (): Out => ({ status: 404, empty: true });
/** Business rule failed in serializer.validate(): the message comes in a list. */
export const ruleError = (msg: string): Out => ({ status: 400, body: { error: [msg] } });
/** View-level failure: the message is a plain string. */
export const viewError = (msg: string): Out => ({ status: 400, body: { error: msg } });
export const fieldErrors = (f: Form): Out => ({ status: 400, body: f.errors });
const detail = (status: number, msg: string, headers?: Record<string, string>): Out => ({
	status,
	body: { detail: msg },
	headers,
});

// ---------------------------------------------------------------- auth

const clientIp = (req: FastifyRequest): string => {
	const a = req.socket.remoteAddress ?? '';
	return a.startsWith('::ffff:') ? a.slice(7) : a;
};

/** DRF TokenAuthentication, then the seed's rules. Returns the user, null (anonymous, allowed) or an error answer. */
function authenticate(state: SandboxState, req: FastifyRequest, optional: boolean): User | null | Out {
	const header = req.headers.authorization;
	// the usual "Token <key>" (one space, no other whitespace) is read without splitting; the rest as DRF does
	if (header !== undefined && header.startsWith('Token ')) {
		const key = header.slice(6);
		if (key !== '' && !/\s/.test(key)) {
			const user = state.byToken.get(key);
			return user ? permitted(state, req, user) : detail(401, 'Invalid token.', { 'www-authenticate': 'Token' });
		}
	}
	const parts = header ? header.trim().split(/\s+/) : [];
	if (parts.length === 0 || parts[0].toLowerCase() !== 'token') {
		// No header, or another scheme (Bearer…): anonymous.
		return optional
			? null
			: detail(401, 'Authentication credentials were not provided.', { 'www-authenticate': 'Token' });
	}
	if (parts.length === 1)
		return detail(401, 'Invalid token header. No credentials provided.', { 'www-authenticate': 'Token' });
	if (parts.length > 2)
		return detail(401, 'Invalid token header. Token string should not contain spaces.', {
			'www-authenticate': 'Token',
		});
	const user = state.byToken.get(parts[1]);
	if (!user) return detail(401, 'Invalid token.', { 'www-authenticate': 'Token' });
	return permitted(state, req, user);
}

/** The seed's rules for a known token: API user type, IP whitelist. */
function permitted(state: SandboxState, req: FastifyRequest, user: User): User | Out {
	if (state.config.enforce_user_type && user.userType !== 'API') {
		return detail(
			403,
			`This account is not an API user (user_type is "${user.userType}"). Upgrade the account to user type API to use ` +
				`its token.`,
		);
	}
	if (user.whitelist.length > 0) {
		const ip = clientIp(req);
		if (!user.whitelist.includes(ip))
			return detail(403, `Your IP address ${ip} is not whitelisted for API access. Add it on the pricing page.`);
	}
	return user;
}

// ---------------------------------------------------------------- pipeline

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const pathOf = (url: string): string => {
	const q = url.indexOf('?');
	return q === -1 ? url : url.slice(0, q);
};

const JSON_UTF8 = 'application/json; charset=utf-8';

function send(reply: FastifyReply, out: Out, entry?: FaultLogEntry): FastifyReply {
	if (entry) entry.httpStatus = out.status;
	reply.code(out.status);
	if (out.headers) reply.headers(out.headers);
	if (out.html !== undefined) return reply.type('text/html; charset=utf-8').send(out.html);
	if (out.empty) return reply.send();
	if (out.raw !== undefined) return reply.type(JSON_UTF8).send(out.raw);
	if (out.json !== undefined) return reply.type('application/json').send(out.json);
	return reply.send(out.body);
}

export type Handler<U extends User | null = User> = (ctx: Ctx<U>) => Out;

/** What a route answers: synchronously when nothing waits (the common case), else a promise. */
type Answered = FastifyReply | undefined | Promise<FastifyReply | undefined>;
const isPromise = (x: Answered): x is Promise<FastifyReply | undefined> => x instanceof Promise;

/** One registered route: what serves it (built once, at registration). */
interface Served {
	rt: Runtime;
	handler: Handler<User | null>;
	/** Anonymous callers too (the family's validation views). */
	optional: boolean;
}

function handle(s: Served, req: FastifyRequest, reply: FastifyReply): Answered {
	const rt = s.rt;
	if (req.method !== 'POST') return serve(s, req, reply);
	// every POST of the merchant API is a purchase: it holds a vendor slot until it is answered
	const { max_in_flight: max, over_capacity: over } = rt.state.config;
	if (!rt.capacity.tryAcquire(max)) {
		if (over === 'queue') return queued(s, req, reply);
		// refused before the site does anything with it: no debit, no record
		rt.capacity.refusedTotal++;
		return send(
			reply,
			over === 'refuse_429'
				? detail(429, 'Request was throttled. Expected available in 1 seconds.', { 'retry-after': '1' })
				: errorPage(503),
		);
	}
	let out: Answered;
	try {
		out = serve(s, req, reply);
	} catch (e) {
		rt.capacity.release();
		throw e;
	}
	if (!isPromise(out)) {
		rt.capacity.release();
		return out;
	}
	return out.finally(() => rt.capacity.release());
}

/** A purchase beyond the vendor's capacity: it waits for a slot (first come, first served). */
async function queued(s: Served, req: FastifyRequest, reply: FastifyReply) {
	const rt = s.rt;
	await rt.capacity.acquire(rt.state.config.max_in_flight);
	try {
		return await serve(s, req, reply);
	} finally {
		rt.capacity.release();
	}
}

/** How long a slow vendor takes over this purchase: the `slow` fault's time, else config slow_vendor's roll. */
function slowMsOf(state: SandboxState, method: string, fault: Fault | undefined): number {
	if (fault?.kind === 'slow') return fault.latencyMs;
	const sv = state.config.slow_vendor;
	if (method !== 'POST' || sv.share <= 0 || state.rng.float() >= sv.share) return 0;
	return Math.round(sv.minMs + state.rng.float() * (sv.maxMs - sv.minMs));
}

type Hit = { fault: Fault; entry: FaultLogEntry } | null;

/** The fault rules first (a header-chosen fault, or the configured rules' roll), then the route. */
function serve(s: Served, req: FastifyRequest, reply: FastifyReply): Answered {
	const state = s.rt.state;
	const asked = state.config.request_faults ? req.headers['x-sandbox-fault'] : undefined;
	const hit: Hit =
		typeof asked === 'string'
			? state.faults.fromHeader(asked, req.method, pathOf(req.url))
			: state.faults.rules.length > 0
				? state.faults.pick(req.method, pathOf(req.url), state.rng)
				: null;
	const fault = hit?.fault;
	if (fault?.kind === 'latency') return sleep(fault.latencyMs).then(() => answer(s, req, reply, hit));
	if (fault?.kind === 'rate_limit') {
		const s = fault.retryAfterSeconds;
		return send(
			reply,
			detail(429, `Request was throttled. Expected available in ${s} seconds.`, { 'retry-after': String(s) }),
			hit!.entry,
		);
	}
	if (fault?.kind === 'error_before') return send(reply, errorPage(fault.httpStatus), hit!.entry);
	return answer(s, req, reply, hit);
}

/** Authentication, the handler (and a slow vendor's wait), then the answer with any after-the-handler fault. */
function answer(s: Served, req: FastifyRequest, reply: FastifyReply, hit: Hit): Answered {
	const { rt, handler } = s;
	const state = rt.state;
	const fault = hit?.fault;
	const auth = authenticate(state, req, s.optional);
	if (auth !== null && 'status' in auth) return finish(rt, req, reply, hit, auth, auth);
	// the serializer refuses the named field: a DRF field error, nothing debited or recorded
	if (fault?.kind === 'refuse_field')
		return finish(rt, req, reply, hit, auth, { status: 400, body: { [fault.field]: [fault.message] } });
	const body = req.body && typeof req.body === 'object' ? (req.body as Body) : {};
	const ctx: Ctx<User | null> = {
		req,
		user: auth,
		state,
		dialect: state.dialect,
		body,
		query: req.query as Ctx['query'],
		forceStatus: fault?.kind === 'flip_later' ? 'successful' : undefined,
		slowMs: slowMsOf(state, req.method, fault),
	};
	const out = handler(ctx);
	if (!out.deferred) return finish(rt, req, reply, hit, auth, out);
	// slow vendor: the answer (and the debit and record) come only when the vendor finishes, even if the
	// client gave up meanwhile; a reset or close before then drops the purchase
	const { ms, commit } = out.deferred;
	return new Promise<void>((r) => state.later(ms, r)).then(() => finish(rt, req, reply, hit, auth, commit()));
}

function finish(
	rt: Runtime,
	req: FastifyRequest,
	reply: FastifyReply,
	hit: Hit,
	auth: User | null | Out,
	out: Out,
): FastifyReply | undefined {
	if (!hit) return send(reply, out);
	// After-the-handler faults: the purchase (if any) is already debited and recorded.
	const { fault, entry } = hit;
	entry.username = auth !== null && !('status' in auth) ? auth.username : null;
	if (out.txn)
		Object.assign(entry, {
			product: out.txn.product,
			txnId: out.txn.id,
			ident: out.txn.ident,
			debitedKobo: out.txn.amountKobo,
		});
	switch (fault.kind) {
		case 'timeout_after': {
			// Never answer: keep the socket until the client gives up (or close() destroys it).
			reply.hijack();
			const sock = req.socket;
			rt.held.add(sock);
			sock.once('close', () => rt.held.delete(sock));
			return undefined;
		}
		case 'reset_after':
			reply.hijack();
			req.socket.destroy();
			return undefined;
		case 'html_after':
			return send(reply, html500(), entry);
		case 'flip_later': {
			const txn = out.txn;
			if (txn) rt.state.later(fault.latencyMs, () => rt.state.setStatus(txn, 'failed'));
			return send(reply, out, entry);
		}
		default:
			return send(reply, out, entry);
	}
}

/** Fastify's route handler: a promise when the answer waits, else undefined (the reply is already sent). */
function route(rt: Runtime, handler: Handler<User | null>, optional: boolean) {
	const s: Served = { rt, handler, optional };
	return (req: FastifyRequest, reply: FastifyReply) => {
		const out = handle(s, req, reply);
		return isPromise(out) ? out : undefined;
	};
}

/** Register an /api route that needs a token. */
export function apiRoute(
	app: FastifyInstance,
	rt: Runtime,
	method: 'GET' | 'POST',
	url: string,
	handler: Handler,
	/** JSON schemas of answers by status: Fastify serialises those with a compiled serializer. */
	response?: Record<number, object>,
): void {
	const schema = response ? { response } : undefined;
	app.route({ method, url, schema, handler: route(rt, handler as Handler<User | null>, false) });
}

/** A GET that anonymous callers may use too (the family's validation views have no permission class). */
export function apiRouteOptionalAuth(
	app: FastifyInstance,
	rt: Runtime,
	url: string,
	handler: Handler<User | null>,
): void {
	app.route({ method: 'GET', url, handler: route(rt, handler, true) });
}
