/**
 * Admin API (header X-Admin-Key): users, funding, config, transactions, ledger, faults, reset.
 * Separate from the merchant API on purpose: tests and benchmarks drive the sandbox through it.
 * Bodies are validated with zod; errors answer 400 {"error": "..."}.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { USER_TYPES } from './catalog';
import { FAULT_KINDS } from './faults';
import type { Capacity } from './http';
import { naira2, parseNaira } from './money';
import { PRODUCTS, type Product, type SandboxState, type Txn, type User } from './state';

const naira = z.union([z.string(), z.number()]).transform((v, ctx) => {
	const k = parseNaira(v);
	if (k === null) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'amount must be a naira amount like "500.00"' });
	return k ?? 0;
});

const NewUser = z.object({
	username: z.string().regex(/^[\w.@+-]{1,150}$/),
	user_type: z.enum(USER_TYPES).default('API'),
	balance: naira.default('0'),
	whitelist: z.array(z.string()).default([]),
	token: z
		.string()
		.regex(/^[0-9a-f]{40}$/)
		.optional(),
	FullName: z.string().optional(),
	email: z.string().optional(),
	Phone: z.string().optional(),
});
const PatchUser = z.object({ user_type: z.enum(USER_TYPES).optional(), whitelist: z.array(z.string()).optional() });
const Fund = z.object({ amount: naira });
const PatchConfig = z.object({
	identity_provider: z.enum(['premblyish', 'dojahish']).optional(),
	identity_fee: z
		.string()
		.refine((s) => parseNaira(s) !== null, 'naira amount')
		.optional(),
	enforce_user_type: z.boolean().optional(),
	customer_ref: z.boolean().optional(),
	request_faults: z.boolean().optional(),
	dialect: z.string().optional(), // read-only: accepted only if unchanged
	settle: z
		.object({
			mode: z.enum(['immediate', 'processing']).optional(),
			delayMs: z.number().int().min(0).max(3_600_000).optional(),
			finalStatus: z.enum(['successful', 'failed']).optional(),
		})
		.optional(),
	validation_routes: z.enum(['both', 'api', 'ajax']).optional(),
	slow_vendor: z
		.object({
			share: z.number().min(0).max(1).optional(),
			minMs: z.number().int().min(0).max(600_000).optional(),
			maxMs: z.number().int().min(0).max(600_000).optional(),
		})
		.optional(),
	max_in_flight: z.number().int().min(1).max(100_000).nullable().optional(),
	over_capacity: z.enum(['queue', 'refuse_429', 'refuse_503']).optional(),
});
const Busy = z.object({
	rate: z.number().positive().max(1000),
	username: z.string().optional(),
	maxRecords: z.number().int().min(1).max(10_000_000).optional(),
	durationMs: z
		.number()
		.int()
		.min(1)
		.max(24 * 3_600_000)
		.optional(),
	mirrorShare: z.number().min(0).max(1).optional(),
});
const PatchTxn = z.object({ Status: z.enum(['successful', 'processing', 'failed']) });
const NewFault = z
	.object({
		endpoint: z.string().min(1),
		kind: z.enum(FAULT_KINDS),
		probability: z.number().min(0).max(1).optional(),
		count: z.number().int().min(1).optional(),
		latencyMs: z.number().int().min(0).max(600_000).optional(),
		retryAfterSeconds: z.number().int().min(0).optional(),
		httpStatus: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
		field: z.string().min(1).max(64).optional(),
		message: z.string().min(1).max(300).optional(),
	})
	.refine((f) => f.kind !== 'refuse_field' || f.field !== undefined, {
		message: 'refuse_field needs the field the site refuses (e.g. "mobile_number")',
		path: ['field'],
	});

export function userView(u: User) {
	return {
		username: u.username,
		token: u.token,
		user_type: u.userType,
		whitelist: u.whitelist,
		balance: naira2(u.balanceKobo),
		balanceKobo: u.balanceKobo,
		funded: u.funded,
		FullName: u.fullName,
		email: u.email,
		Phone: u.phone,
	};
}

export function txnView(t: Txn) {
	return {
		product: t.product,
		id: t.id,
		ident: t.ident,
		username: t.username,
		Status: t.status,
		amountKobo: t.amountKobo,
		recipient: t.recipient,
		created: t.createDate,
		customerRef: t.d.customerRef ?? null,
		tag: t.d.tag ?? null,
	};
}

class HttpError extends Error {
	constructor(
		readonly status: number,
		msg: string,
	) {
		super(msg);
	}
}

function parse<T extends z.ZodTypeAny>(schema: T, body: unknown): z.infer<T> {
	const r = schema.safeParse(body ?? {});
	if (!r.success)
		throw new HttpError(400, r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
	return r.data;
}

type Admin = FastifyInstance;

export function adminRoutes(app: FastifyInstance, state: SandboxState, adminKey: string, capacity: Capacity): void {
	app.register(async (admin) => {
		admin.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
			if (req.headers['x-admin-key'] !== adminKey)
				return reply.code(401).send({ detail: 'Invalid or missing X-Admin-Key.' });
		});
		admin.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
			const status = err instanceof HttpError ? err.status : (err.statusCode ?? 500);
			reply.code(status).send({ error: err.message });
		});
		userRoutes(admin, state);
		configRoutes(admin, state);
		transactionRoutes(admin, state);
		faultRoutes(admin, state);
		loadRoutes(admin, state, capacity);
		admin.post('/admin/reset', async () => {
			state.reset();
			capacity.resetStats();
			return { ok: true, demo: { username: state.demoUser.username, token: state.demoUser.token } };
		});
	});
}

/** The user named in the route (`:username`), or 404. */
function routeUser(state: SandboxState, req: FastifyRequest): User {
	const u = state.users.get((req.params as { username: string }).username);
	if (!u) throw new HttpError(404, 'no such user');
	return u;
}

/** The transaction named in the route (`:product/:id`), or 404. */
function routeTxn(state: SandboxState, req: FastifyRequest): Txn {
	const { product, id } = req.params as { product: string; id: string };
	if (!PRODUCTS.includes(product as Product)) throw new HttpError(404, `product must be one of ${PRODUCTS.join(', ')}`);
	const t = state.find(product as Product, Number(id));
	if (!t) throw new HttpError(404, 'no such transaction');
	return t;
}

function userRoutes(admin: Admin, state: SandboxState): void {
	const user = (req: FastifyRequest) => routeUser(state, req);
	admin.post('/admin/users', async (req, reply) => {
		const b = parse(NewUser, req.body);
		if (state.users.has(b.username)) throw new HttpError(409, 'username taken');
		if (b.token && state.byToken.has(b.token)) throw new HttpError(409, 'token taken');
		const u = state.createUser({
			username: b.username,
			userType: b.user_type,
			balanceKobo: b.balance,
			whitelist: b.whitelist,
			token: b.token,
			fullName: b.FullName,
			email: b.email,
			phone: b.Phone,
		});
		return reply.code(201).send({ username: u.username, token: u.token, user_type: u.userType });
	});
	admin.get('/admin/users', async () => [...state.users.values()].map(userView));
	admin.get('/admin/users/:username', async (req) => userView(user(req)));
	admin.patch('/admin/users/:username', async (req) => {
		const u = user(req);
		const b = parse(PatchUser, req.body);
		if (b.user_type) state.setUserType(u, b.user_type);
		if (b.whitelist) u.whitelist = b.whitelist;
		return userView(u);
	});
	admin.post('/admin/users/:username/fund', async (req) => {
		const u = user(req);
		const { amount } = parse(Fund, req.body);
		if (amount <= 0) throw new HttpError(400, 'amount must be positive');
		state.fund(u, amount);
		return { username: u.username, balance: naira2(u.balanceKobo), balanceKobo: u.balanceKobo };
	});
	admin.post('/admin/users/:username/token', async (req) => ({
		username: user(req).username,
		token: state.resetToken(user(req)),
	}));
}

function configRoutes(admin: Admin, state: SandboxState): void {
	admin.get('/admin/config', async () => state.config);
	admin.patch('/admin/config', async (req) => {
		const b = parse(PatchConfig, req.body);
		if (b.dialect !== undefined && b.dialect !== state.dialect)
			throw new HttpError(400, 'dialect is fixed at start (startSandbox({dialect}) / --dialect)');
		const c = state.config;
		if (b.identity_provider) c.identity_provider = b.identity_provider;
		if (b.identity_fee) c.identity_fee = naira2(parseNaira(b.identity_fee)!);
		if (b.enforce_user_type !== undefined) c.enforce_user_type = b.enforce_user_type;
		if (b.customer_ref !== undefined) c.customer_ref = b.customer_ref;
		if (b.request_faults !== undefined) c.request_faults = b.request_faults;
		if (b.settle) c.settle = { ...c.settle, ...b.settle };
		if (b.validation_routes) c.validation_routes = b.validation_routes;
		if (b.slow_vendor) {
			const sv = { ...c.slow_vendor, ...b.slow_vendor };
			if (sv.minMs > sv.maxMs) throw new HttpError(400, 'slow_vendor: minMs must be at most maxMs');
			c.slow_vendor = sv;
		}
		if (b.max_in_flight !== undefined) c.max_in_flight = b.max_in_flight;
		if (b.over_capacity) c.over_capacity = b.over_capacity;
		return c;
	});
}

function transactionRoutes(admin: Admin, state: SandboxState): void {
	admin.get('/admin/transactions', async (req) => {
		const q = req.query as { username?: string; product?: string; status?: string };
		const products = q.product ? PRODUCTS.filter((p) => p === q.product) : PRODUCTS;
		const out = [];
		for (const p of products) {
			for (const t of state.txns[p]) {
				if ((!q.username || t.username === q.username) && (!q.status || t.status === q.status)) out.push(txnView(t));
			}
		}
		return out.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : 0));
	});
	admin.get('/admin/transactions/:product/:id', async (req) => txnView(routeTxn(state, req)));
	admin.patch('/admin/transactions/:product/:id', async (req) => {
		const t = routeTxn(state, req);
		const { Status } = parse(PatchTxn, req.body);
		const r = state.setStatus(t, Status);
		if (!r.ok) throw new HttpError(409, r.error);
		return txnView(t);
	});
	admin.get('/admin/ledger', async (req) => {
		const { username } = req.query as { username?: string };
		return username ? state.ledger.filter((e) => e.username === username) : state.ledger;
	});
}

function faultRoutes(admin: Admin, state: SandboxState): void {
	admin.post('/admin/faults', async (req, reply) => reply.code(201).send(state.faults.add(parse(NewFault, req.body))));
	admin.get('/admin/faults', async () => state.faults.list());
	admin.delete('/admin/faults', async () => {
		state.faults.clear();
		return { ok: true };
	});
	admin.delete('/admin/faults/:id', async (req) => {
		if (!state.faults.remove(Number((req.params as { id: string }).id))) throw new HttpError(404, 'no such fault');
		return { ok: true };
	});
	admin.get('/admin/faults/log', async () => state.faults.log);
	admin.delete('/admin/faults/log', async () => {
		state.faults.log = [];
		return { ok: true };
	});
}

/** Load on the account and on the vendor: the busy-account generator and the capacity counters. */
function loadRoutes(admin: Admin, state: SandboxState, capacity: Capacity): void {
	// busy account: other buyers creating records on one account (sandbox/busy.ts)
	admin.post('/admin/busy', async (req, reply) => {
		const b = parse(Busy, req.body);
		if (b.username !== undefined && !state.users.has(b.username)) throw new HttpError(404, 'no such user');
		return reply.code(201).send(state.busy.start(b));
	});
	admin.get('/admin/busy', async () => state.busy.status());
	admin.delete('/admin/busy', async () => state.busy.stop('stopped'));

	// vendor capacity (config max_in_flight): what is in flight and queued now, the peak since reset
	admin.get('/admin/capacity', async () => ({
		max_in_flight: state.config.max_in_flight,
		inFlight: capacity.inFlight,
		queued: capacity.queued,
		peakInFlight: capacity.peak,
		queuedTotal: capacity.queuedTotal,
		refusedTotal: capacity.refusedTotal,
		peakQueued: capacity.peakQueued,
	}));
}
