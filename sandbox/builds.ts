/**
 * Build profiles of the family dialect: `--dialect family --build <name>` (startSandbox({ build })).
 * Real sites run different builds of one server, and each is strict in its own way where the plain family
 * dialect is lenient: one MeterType encoding, the disco/cable by id or by name in validation, the SMS
 * history paginated or a bare list, 200 or 201 on purchases, which catalogue routes exist. A client that
 * passes against every profile has met each strictness we have evidence of (sandbox/README.md, "Build
 * profiles"; docs/real-sites.md for the sources). This file is the one table of those differences; the
 * routes read it through buildOf().
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CABLES, cableById, discoById, DISCOS, type Tier } from './catalog';
import { apiRoute, html500, NOT_FOUND_HTML, type Runtime } from './http';
import { legacyCatalogue } from './render';
import type { Dialect, SandboxState } from './state';

export type BuildName = 'legitdata' | 'husmodata' | 'muhallidata' | 'legacy';
type OlderRoute = 'network' | 'cable' | 'disco';
const ALL_OLDER: readonly OlderRoute[] = ['network', 'cable', 'disco'];

export interface Build {
	name: BuildName;
	/** One line for --help and the README. */
	summary: string;
	/** The newer `/api/get/network|cable|disco/` routes exist. */
	getRoutes: boolean;
	/** Which of the older `/api/network/`, `/api/cable/`, `/api/disco/` routes exist (MSORG's own app reads them). */
	olderRoutes: readonly OlderRoute[];
	/** The one `MeterType` encoding `/api/billpayment/` accepts: "Prepaid"/"Postpaid" or 1/2. */
	meterType: 'name' | 'number';
	/**
	 * What validation takes as `disconame` / `cablename`: the name ("Ikeja Electric", "GOTV") or the id; the other crashes
	 * (500).
	 */
	validateBy: 'name' | 'id';
	/** `GET /api/sendsms/`: DRF pages, or every row in one bare list. */
	smsHistory: 'paginated' | 'list';
	/** What a successful purchase POST answers. */
	purchaseStatus: 200 | 201;
	/** The sender column's length: longer is refused with DRF's max_length error. */
	senderMax: number;
	/** Where data coupons are sold (and listed): `/api/data_pin/`, or `/api/datarechargepin/` on husmodata. */
	couponPath: CouponPath;
	/**
	 * `GET /api/Wallet_summary/`: DRF pages honouring `?search=` (what MSORG's own app reads), every row in
	 * one bare list ignoring `?search=` (the LegitData view), or no such route (no evidence either way).
	 */
	walletSummary: 'paginated' | 'list' | 'none';
}

export const COUPON_PATHS = ['/api/data_pin/', '/api/datarechargepin/'] as const;
type CouponPath = (typeof COUPON_PATHS)[number];

/** What the public server copy does; each build below says where it differs. */
const SERVER_COPY = {
	getRoutes: true,
	olderRoutes: ALL_OLDER,
	meterType: 'name',
	validateBy: 'name',
	smsHistory: 'paginated',
	purchaseStatus: 201,
	senderMax: 12,
	couponPath: '/api/data_pin/',
} as const satisfies Partial<Build>;

export const BUILDS: Record<BuildName, Build> = {
	legitdata: {
		...SERVER_COPY,
		name: 'legitdata',
		summary: 'the public server copy: every catalogue route, names everywhere, 201, paged SMS history',
		walletSummary: 'list',
	},
	husmodata: {
		...SERVER_COPY,
		name: 'husmodata',
		summary:
			'the older Husmodata build: MeterType 1/2, validation by id, 200 on purchases, SMS history as a bare list, data ' +
			'coupons at /api/datarechargepin/',
		meterType: 'number',
		validateBy: 'id',
		smsHistory: 'list',
		purchaseStatus: 200,
		couponPath: '/api/datarechargepin/',
		walletSummary: 'none',
	},
	muhallidata: {
		...SERVER_COPY,
		name: 'muhallidata',
		summary: "what MSORG's own app reads: only /api/network/, /api/cable/, /api/disco/ (no /api/get/…)",
		getRoutes: false,
		walletSummary: 'paginated',
	},
	legacy: {
		...SERVER_COPY,
		name: 'legacy',
		summary:
			'plans and packages only in the /api/user/ payload (no /api/get/…, /api/network/ or /api/cable/); /api/disco/ ' +
			'stays, as no payload lists discos',
		getRoutes: false,
		olderRoutes: ['disco'],
		walletSummary: 'none',
	},
};

export const BUILD_NAMES = Object.keys(BUILDS) as BuildName[];

const builds = new WeakMap<SandboxState, Build>();

/** The build profile a sandbox runs, or undefined for the plain dialect. */
export function buildOf(state: SandboxState): Build | undefined {
	return builds.get(state);
}

/** Where this sandbox sells data coupons: the build's route, else /api/data_pin/ (the other answers 404). */
export function couponPath(state: SandboxState): CouponPath {
	return buildOf(state)?.couponPath ?? COUPON_PATHS[0];
}

/** The sender column's length: the build's, else the plain dialect's 11. */
export function senderMax(state: SandboxState): number {
	return buildOf(state)?.senderMax ?? 11;
}

export function checkBuild(name: string, dialect: Dialect): Build {
	const b = (BUILDS as Record<string, Build | undefined>)[name];
	if (!b || !Object.hasOwn(BUILDS, name))
		throw new Error(`--build must be one of ${BUILD_NAMES.join(', ')} (got ${JSON.stringify(name)})`);
	if (dialect !== 'family')
		throw new Error('--build needs --dialect family (build profiles are builds of the real family server)');
	return b;
}

// ---------------------------------------------------------------- the older catalogue routes

const cached = new Map<string, string>();
function olderPayload(route: OlderRoute, tier: Tier): string {
	const key = `${route}|${tier}`;
	let s = cached.get(key);
	if (s !== undefined) return s;
	const legacy = legacyCatalogue('family', tier);
	if (route === 'network') {
		// {MTN_PLAN: [rows]}: the ALL list of the profile's Dataplans, one list per network
		s = JSON.stringify(
			Object.fromEntries(Object.entries(legacy.Dataplans).map(([k, v]) => [k, (v as { ALL: unknown[] }).ALL])),
		);
	} else if (route === 'cable') {
		// {GOTVPLAN, DSTVPLAN, STARTIME, cablename}: the key is STARTIME here, STARTIMEPLAN in the profile
		const out: Record<string, unknown> = {};
		for (const c of CABLES)
			out[c.name === 'STARTIME' ? 'STARTIME' : `${c.name}PLAN`] = legacy.Cableplan[`${c.name}PLAN`];
		out.cablename = legacy.Cableplan.cablename;
		s = JSON.stringify(out);
	} else s = JSON.stringify({ disko: DISCOS.map((d) => ({ id: d.id, name: d.name })) });
	cached.set(key, s);
	return s;
}

// ---------------------------------------------------------------- strictness

const pathOf = (url: string): string => url.split('?')[0];
const html404 = (reply: FastifyReply) => reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_HTML);
const html500Reply = (reply: FastifyReply) => reply.code(500).type('text/html; charset=utf-8').send(html500().html);
const GET_ROUTES = new Set(['/api/get/network/', '/api/get/cable/', '/api/get/disco/']);
const PURCHASES = new Set([
	'/api/data/',
	'/api/topup/',
	'/api/cablesub/',
	'/api/billpayment/',
	'/api/epin/',
	'/api/rechargepin/',
	...COUPON_PATHS,
]);

/** Validation parameters the build does not take crash its view (int() of a name, a name lookup of an id). */
function strictValidation(b: Build, req: FastifyRequest, reply: FastifyReply, path: string): boolean {
	const q = req.query as Record<string, string | undefined>;
	if (path === '/api/validatemeter/' || path === '/ajax/validate_meter_number/') {
		const v = q.disconame ?? '';
		const ok =
			b.validateBy === 'id'
				? /^\d+$/.test(v) && discoById.has(Number(v))
				: DISCOS.some((d) => d.name.toLowerCase() === v.trim().toLowerCase());
		if (!ok) html500Reply(reply);
		return !ok;
	}
	if (path === '/api/validateiuc/' || path === '/ajax/validate_iuc/') {
		const v = q.cablename ?? '';
		if (b.validateBy === 'name') return false; // the plain family view is name-only already
		const cable = /^\d+$/.test(v) ? cableById.get(Number(v)) : undefined;
		if (!cable) {
			html500Reply(reply);
			return true;
		}
		q.cablename = cable.name; // the id build looks the cable up by id; the shared view then answers as usual
	}
	return false;
}

function strictMeterType(b: Build, req: FastifyRequest, reply: FastifyReply): boolean {
	const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
	const v = body.MeterType;
	if (v === undefined || v === null) return false; // the view's own "required" error
	const ok =
		b.meterType === 'name'
			? v === 'Prepaid' || v === 'Postpaid'
			: ['1', '2'].includes(String(v)) && typeof v !== 'boolean';
	if (ok) return false;
	reply.code(400).send({ MeterType: [`"${String(v)}" is not a valid choice.`] });
	return true;
}

/**
 * Registers the family's older catalogue routes (every family sandbox: real builds serve them) and, with a
 * build, its strictness as hooks around the shared routes. Call before the shared routes are registered.
 */
export function applyBuild(app: FastifyInstance, rt: Runtime, build: Build | undefined): void {
	const state = rt.state;
	if (build) builds.set(state, build);
	if (state.dialect !== 'family') return;
	registerOlderRoutes(app, rt, build?.olderRoutes ?? ALL_OLDER);
	if (build) strictHooks(app, build);
	// (Python's float in /api/user/, 986839.0 for a whole-number balance, is rendered by render.ts userPayload.)
	if (build)
		app.addHook('onSend', async (req, reply, payload) => {
			if (req.method === 'POST' && reply.statusCode === 201 && PURCHASES.has(pathOf(req.url)))
				reply.code(build.purchaseStatus);
			return payload;
		});
}

/** The build's strictness around the shared routes (the plain family dialect has none of these hooks). */
function strictHooks(app: FastifyInstance, build: Build): void {
	app.addHook('onRequest', async (req, reply) => {
		if (!build.getRoutes && GET_ROUTES.has(pathOf(req.url))) return html404(reply);
		return undefined;
	});
	app.addHook('preHandler', async (req, reply) => {
		const path = pathOf(req.url);
		// a caller without a token still gets the view's 401 first
		const answered =
			req.method === 'GET'
				? strictValidation(build, req, reply, path)
				: path === '/api/billpayment/' && !!req.headers.authorization && strictMeterType(build, req, reply);
		return answered ? reply : undefined; // an async hook that answered returns the reply: the route never runs
	});
}

function registerOlderRoutes(app: FastifyInstance, rt: Runtime, routes: readonly OlderRoute[]): void {
	for (const route of routes) {
		apiRoute(app, rt, 'GET', `/api/${route}/`, (c) => ({ status: 200, json: olderPayload(route, c.user.tier) }));
	}
}
