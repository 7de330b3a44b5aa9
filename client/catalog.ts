/**
 * Catalogue cache: one entry per baseUrl + token (module-wide, so clients created per n8n execution
 * share it), a TTL, and a shared in-flight promise so 10,000 concurrent callers cause one fetch.
 */
import { createHash } from 'node:crypto';
import { VtuBadResponseError } from './errors';
import type { HttpCore } from './http';
import type {
	Catalog,
	CablePackage,
	CableProvider,
	DataPlan,
	Disco,
	ExamPrice,
	NetworkInfo,
	RechargeDenomination,
	UserProfile,
} from './types';
import { CABLE_GROUPS, DISCO_GROUPS, NETWORK_GROUPS, discoGroup, nameKey } from './schemas/aliases';
import { CatalogShapeError, canonicalNetwork } from './schemas/catalog';
import { canonicalCable } from './products/cable/catalog';
import { legacyNetworks, NETWORK_ROUTES, parseNetworks } from './products/data/catalog';
import type { CatalogSection } from './products/define';
import { CATALOG_SECTIONS } from './products/registry';
import { parseUserPayload } from './products/user';
import { isMissingRoute, learnSiteFact, siteFact, viaKnownRoute } from './site';
import type { Logger } from './util';

/** Catalogue entries a user names: by id, exact name or documented alias (built once per catalogue). */
export interface Choices<T> {
	byId: Map<number, T>;
	/** nameKey(site's name) → entries (more than one: the name is ambiguous on this site). */
	byName: Map<string, T[]>;
	/** alias group → entries of that group. */
	byGroup: Map<string, T[]>;
	/** nameKey(alias) → group, for what a user types. */
	aliases: Map<string, string>;
	label(t: T): string;
	/** Every entry's label, for messages: "MTN (1), GLO (2)". */
	listing: string;
}

export interface CatalogIndex {
	catalog: Catalog;
	profile: UserProfile;
	fetchedAt: number;
	networks: Choices<NetworkInfo>;
	planById: Map<number, DataPlan>;
	cables: Choices<CableProvider>;
	packageById: Map<number, CablePackage>;
	discos: Choices<Disco>;
	exams: Choices<ExamPrice>;
	rechargeById: Map<number, RechargeDenomination>;
}

interface Entry {
	expires: number;
	promise: Promise<CatalogIndex>;
	/** The index once `promise` resolved (read synchronously by `ready`). */
	idx?: CatalogIndex;
}

const cache = new Map<string, Entry>();

export function cacheKey(baseUrl: string, token: string): string {
	return baseUrl + '\u0000' + createHash('sha256').update(token).digest('hex').slice(0, 32);
}

/** Drop every cached catalogue (tests). */
export function clearCatalogCache(): void {
	cache.clear();
}

const push = <K, T>(m: Map<K, T[]>, k: K, t: T): void => {
	const l = m.get(k);
	if (l) l.push(t);
	else m.set(k, [t]);
};

function choices<T>(
	items: readonly T[],
	id: ((t: T) => number) | null,
	name: (t: T) => string,
	group: (t: T) => string | undefined,
	aliases: Map<string, string>,
): Choices<T> {
	const c: Choices<T> = {
		byId: new Map(),
		byName: new Map(),
		byGroup: new Map(),
		aliases,
		label: id ? (t) => `${name(t)} (${id(t)})` : name,
		listing: '',
	};
	for (const t of items) {
		if (id) c.byId.set(id(t), t);
		push(c.byName, nameKey(name(t)), t);
		const g = group(t);
		if (g !== undefined) push(c.byGroup, g, t);
	}
	c.listing = items.map(c.label).join(', ');
	return c;
}

/** Entries with an id and a site's name, grouped by the alias group of their canonical name (networks, cables). */
function aliased<T extends { id: number; name: unknown }>(
	items: readonly T[],
	canonical: (name: unknown) => string,
	groups: Map<string, string>,
): Choices<T> {
	return choices(
		items,
		(t) => t.id,
		(t) => String(t.name),
		(t) => groups.get(nameKey(canonical(t.name))),
		groups,
	);
}

/** Exams sold when a site lists none (the family's model choices). */
const DEFAULT_EXAMS: ExamPrice[] = ['WAEC', 'NECO', 'NABTEB'].map((exam) => ({
	exam,
	price: { kobo: 0, naira: '0.00' },
}));

export function buildIndex(catalog: Catalog, profile: UserProfile, fetchedAt: number): CatalogIndex {
	const idx: CatalogIndex = {
		catalog,
		profile,
		fetchedAt,
		networks: aliased(catalog.networks, canonicalNetwork, NETWORK_GROUPS),
		planById: new Map(),
		cables: aliased(catalog.cable, canonicalCable, CABLE_GROUPS),
		packageById: new Map(),
		discos: choices(
			catalog.discos,
			(d) => d.id,
			(d) => d.name,
			(d) => discoGroup(d.name),
			DISCO_GROUPS,
		),
		exams: choices(
			catalog.exams.length ? catalog.exams : DEFAULT_EXAMS,
			null,
			(e) => e.exam,
			() => undefined,
			new Map(),
		),
		rechargeById: new Map(),
	};
	for (const n of catalog.networks) for (const p of n.plans) idx.planById.set(p.id, p);
	for (const c of catalog.cable) for (const p of c.packages) idx.packageById.set(p.id, p);
	for (const r of catalog.recharge) idx.rechargeById.set(r.id, r);
	return idx;
}

async function optional(http: HttpCore, path: string, signal?: AbortSignal): Promise<unknown | undefined> {
	try {
		return await http.get(path, { signal });
	} catch (e) {
		if (isMissingRoute(e)) return undefined;
		throw e;
	}
}

/** Remembered for a section whose every route is missing: read the /api/user/ payload without asking again. */
const USER_PAYLOAD = '/api/user/';

/**
 * A section's body from its routes (docs/real-sites.md §3.2), or undefined where none serves it (then the
 * legacy /api/user/ payload has it). Sections that builds serve under different routes (the newer `/api/get/…`
 * form, then the older `/api/network/`, `/api/cable/`, `/api/disco/` that MSORG's own app reads) remember the
 * route that answered per site (client/site.ts), so later fetches go straight to it, or that none did.
 */
async function sectionBody(
	http: HttpCore,
	name: string,
	routes: readonly string[],
	remember: boolean,
	signal?: AbortSignal,
): Promise<unknown | undefined> {
	if (!remember) return optional(http, routes[0], signal);
	const fact = `catalogue.${name}`;
	if (siteFact(http.baseUrl, fact) === USER_PAYLOAD) return undefined;
	try {
		return await viaKnownRoute(http, fact, routes, (route) => http.get(route, { signal }));
	} catch (e) {
		if (!isMissingRoute(e)) throw e;
		learnSiteFact(http.baseUrl, fact, USER_PAYLOAD);
		return undefined;
	}
}

/** Data plans: the first route that answers with a usable shape, else the legacy `Dataplans` of /api/user/. */
function networksFrom(
	netBody: unknown,
	root: Record<string, unknown>,
	userType: string,
	logger?: Logger,
): NetworkInfo[] {
	let why = 'no catalogue route answered (/api/get/network/, /api/network/) and /api/user/ carries no Dataplans';
	for (const src of [netBody, legacyNetworks(root)]) {
		if (src === undefined || src === null) continue;
		try {
			const nets = parseNetworks(src, userType);
			if (nets.length) return nets;
			why = 'it lists no network';
		} catch (e) {
			if (!(e instanceof CatalogShapeError)) throw e;
			why = e.message;
			logger?.warn?.('the data plan catalogue has an unexpected shape; trying the legacy payload', { reason: why });
		}
	}
	throw new VtuBadResponseError(`The data plan catalogue has an unexpected shape: ${why}`, {
		path: NETWORK_ROUTES[0],
	});
}

/** A product's section: the first of its route's body and its legacy piece that parses, else its fallback. */
function sectionFrom(
	s: CatalogSection,
	body: unknown,
	root: Record<string, unknown>,
	networks: NetworkInfo[],
	logger?: Logger,
): unknown {
	for (const src of [body, s.legacy(root)]) {
		if (src === undefined || src === null) continue;
		try {
			return s.parse(src, { networks });
		} catch (e) {
			if (!(e instanceof CatalogShapeError)) throw e;
			logger?.warn?.(`catalogue section ${s.name} has an unexpected shape; trying the legacy payload`, {
				reason: e.message,
			});
		}
	}
	return s.fallback;
}

async function fetchCatalog(http: HttpCore, logger?: Logger, signal?: AbortSignal): Promise<CatalogIndex> {
	const [userBody, netBody, ...bodies] = await Promise.all([
		http.get('/api/user/', { signal }),
		sectionBody(http, 'network', NETWORK_ROUTES, true, signal),
		...CATALOG_SECTIONS.map((s) => sectionBody(http, s.name, s.routes, s.remember, signal)),
	]);
	const { profile, root } = parseUserPayload(userBody);
	const networks = networksFrom(netBody, root, profile.userType, logger);
	const sections = CATALOG_SECTIONS.map((s, i) => [s.key, sectionFrom(s, bodies[i], root, networks, logger)]);
	// every field but `networks` has its section: the registry's type check fails on one left unread
	const catalog = { networks, ...Object.fromEntries(sections) } as Catalog;
	return buildIndex(catalog, profile, http.now());
}

export class CatalogCache {
	constructor(
		private readonly http: HttpCore,
		private readonly key: string,
		private readonly ttlMs: number,
		private readonly logger?: Logger,
	) {}

	/** The cached index when it is fetched and fresh, without a promise (the purchase hot path); else undefined. */
	ready(): CatalogIndex | undefined {
		const e = cache.get(this.key);
		return e?.idx && e.expires > this.http.now() ? e.idx : undefined;
	}

	get(opts: { fresh?: boolean; signal?: AbortSignal } = {}): Promise<CatalogIndex> {
		const now = this.http.now();
		const e = cache.get(this.key);
		if (e && !opts.fresh && e.expires > now) return e.promise;
		const promise = fetchCatalog(this.http, this.logger, opts.signal);
		const entry: Entry = { expires: now + this.ttlMs, promise };
		cache.set(this.key, entry);
		promise.then(
			(idx) => {
				if (cache.get(this.key) !== entry) return;
				entry.expires = idx.fetchedAt + this.ttlMs;
				entry.idx = idx;
			},
			() => {
				if (cache.get(this.key) === entry) cache.delete(this.key);
			},
		);
		return promise;
	}

	invalidate(): void {
		cache.delete(this.key);
	}
}
