/**
 * startSandbox(): the merchant-API emulator on loopback. Fastify with logging off and
 * cached catalogue payloads, so it is never the bottleneck of a benchmark.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import { parse as parseQs } from 'node:querystring';
import Fastify, { type FastifyInstance } from 'fastify';
import { adminRoutes } from './admin';
import { applyBuild, type BuildName, checkBuild } from './builds';
import type { BusySpec } from './busy';
import { Capacity, NOT_FOUND_HTML, type Runtime, SERVER_ERROR_HTML } from './http';
import { catalogRoutes } from './routes/catalog';
import { historyRoutes } from './routes/history';
import { walletRoutes } from './routes/wallet';
import { purchaseRoutes } from './routes/purchases';
import { validateRoutes } from './routes/validate';
import { type Dialect, SandboxState } from './state';

export interface SandboxOptions {
	/** 0 (default) picks a free port. */
	port?: number;
	host?: '127.0.0.1';
	/** 'seed' (default) follows the seed document; 'family' the real MSORG sites. */
	dialect?: Dialect;
	/** A build profile of the family (sandbox/builds.ts); implies dialect 'family'. */
	build?: BuildName;
	/** Admin API secret; default a fresh random key per start (never derived from the seed, so it cannot be computed). */
	adminKey?: string;
	/** RNG seed for tokens, idents, pins and fault rolls. Default 1. */
	seed?: number;
	/** Fix the demo user's token (40 hex); default derived from the seed. */
	demoToken?: string;
	/** Start a busy account at once (other buyers creating records on the demo account unless `username`). */
	busy?: BusySpec;
	/** Fastify request logging; off by default (speed). */
	logger?: boolean;
}

export interface Sandbox {
	/** http://127.0.0.1:PORT: no trailing slash, no /api. */
	baseUrl: string;
	adminKey: string;
	/** The seeded API user (₦1,000,000.00). The token follows admin token resets. */
	demo: { readonly username: string; readonly token: string };
	state: SandboxState;
	close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
	const dialect = opts.dialect ?? (opts.build ? 'family' : 'seed');
	const build = opts.build === undefined ? undefined : checkBuild(opts.build, dialect);
	const seed = opts.seed ?? 1;
	if (opts.demoToken !== undefined && !/^[0-9a-f]{40}$/.test(opts.demoToken))
		throw new Error('demoToken must be 40 lowercase hex characters');
	const state = new SandboxState(dialect, seed, { username: 'demo', token: opts.demoToken });
	if (opts.adminKey !== undefined && opts.adminKey.trim() === '') throw new Error('adminKey must not be empty');
	const adminKey = opts.adminKey ?? `adm_${randomBytes(16).toString('hex')}`;
	const rt: Runtime = { state, held: new Set<Socket>(), capacity: new Capacity() };

	const app = Fastify({
		logger: opts.logger ?? false,
		forceCloseConnections: true,
		bodyLimit: 1 << 20,
		keepAliveTimeout: 65_000,
	});
	// The family (DRF) also parses form bodies.
	app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
		done(null, parseQs(body as string)),
	);

	applyBuild(app, rt, build);
	catalogRoutes(app, rt);
	purchaseRoutes(app, rt);
	historyRoutes(app, rt);
	walletRoutes(app, rt);
	validateRoutes(app, rt);
	adminRoutes(app, state, adminKey, rt.capacity);

	djangoFallbacks(app);

	await app.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
	const port = (app.server.address() as AddressInfo).port;
	if (opts.busy) state.busy.start(opts.busy);

	return {
		baseUrl: `http://127.0.0.1:${port}`,
		adminKey,
		demo: {
			get username() {
				return state.demoUser.username;
			},
			get token() {
				return state.demoUser.token;
			},
		},
		state,
		async close() {
			state.busy.stop('closed');
			state.clearTimers();
			for (const s of rt.held) s.destroy();
			rt.held.clear();
			await app.close();
		},
	};
}

/** What Django answers outside the routes: APPEND_SLASH redirects, its 404 and 500 pages, DRF's parse errors. */
function djangoFallbacks(app: FastifyInstance): void {
	app.setNotFoundHandler((req, reply) => {
		// Django APPEND_SLASH: a slash-less URL whose slashed form exists gets a 301 (POSTs included,
		// which is the family's gotcha: a client following it re-issues a GET and lands on the list).
		const q = req.url.indexOf('?');
		const path = q === -1 ? req.url : req.url.slice(0, q);
		if (!path.endsWith('/')) {
			const slashed = `${path}/`;
			if (app.hasRoute({ method: 'GET', url: slashed }) || app.hasRoute({ method: 'POST', url: slashed })) {
				return reply
					.code(301)
					.header('location', slashed + (q === -1 ? '' : req.url.slice(q)))
					.send();
			}
		}
		return reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_HTML);
	});

	app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) => {
		// Body parsing failures look like DRF's; anything else is Django's 500 page.
		if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
			return reply.code(415).send({ detail: `Unsupported media type "${_req.headers['content-type']}" in request.` });
		}
		if (err.statusCode === 400 || err.statusCode === 413) {
			return reply.code(err.statusCode).send({ detail: `JSON parse error - ${err.message}` });
		}
		return reply.code(500).type('text/html; charset=utf-8').send(SERVER_ERROR_HTML);
	});
}
