/** Shared pieces of the product modules: record parsing, network resolution, the module interface. */
import { z } from 'zod';
import type { CatalogIndex, Choices } from '../catalog';
import { VtuBadResponseError, VtuInvalidInputError, shown } from '../errors';
import { parseBoolean, parseId } from '../input';
import { money, tryParseKobo } from '../money';
import { nameKey } from '../schemas/aliases';
import { normalizeStatus, zId, zodSummary } from '../schemas/common';
import type { PurchaseContext } from '../purchase';
import type {
	BuyOptions,
	Money,
	NetworkInfo,
	Product,
	PurchaseQuote,
	PurchaseResult,
	ResultPath,
	SmsRates,
	TransactionStatus,
} from '../types';
import { siteFact } from '../site';
import { isRecord } from '../util';

export interface ClientSettings {
	/** The configured MeterType encoding (a site's learned one wins: electricity/meter-type.ts). */
	meterType: 'name' | 'number';
	/** Send MeterType in exactly this encoding (the one re-send after a site refused the other). */
	meterTypeNow?: 'name' | 'number';
	smsBatchSize: number;
	/** The site, for what the client learned about it (MeterType encoding, SMS rate). */
	baseUrl: string;
	/**
	 * The SMS rates in force for a catalogue: the catalogue's, the credential's, the learned or the assumed
	 * (sms/rate.ts). The one place the client selects an SMS rate.
	 */
	smsRates(idx: CatalogIndex): SmsRates;
}

/** What a product that sends more than one POST, or re-sends in another encoding, gets from the client. */
export interface PurchaseEnv {
	ctx: PurchaseContext;
	/** The catalogue (cached). */
	index(): Promise<CatalogIndex>;
	/** The wallet balance in kobo, or null when it cannot be read. */
	walletKobo(): Promise<number | null>;
}

/** How reconciliation recognises the record of a purchase. */
export interface MatchSpec {
	/** Normalised recipient to compare with `PurchaseResult.recipient` (null: not compared). */
	recipient: string | null;
	/** Term for `?search=` (null: the product is not searchable by recipient). */
	search: string | null;
	/** Plan / amount / quantity comparison. */
	test(r: PurchaseResult): boolean;
	/**
	 * Which purchases leave records that match each other, when finer than product + recipient + charge
	 * (SMS: sender, message and the set of recipients). Default: product, recipient and charge.
	 */
	key?: string;
}

export interface PreparedPurchase {
	product: Product;
	path: string;
	body: Record<string, unknown>;
	quote: PurchaseQuote;
	match: MatchSpec;
}

export interface ProductModule<Req = unknown> {
	product: Product;
	/** Collection path with trailing slash, e.g. /api/data/ */
	path: string;
	/** Detail route /api/<svc>/<id> exists (no trailing slash). */
	hasDetail: boolean;
	prepare(req: Req, idx: CatalogIndex, settings: ClientSettings): PreparedPurchase;
	parse(raw: unknown, path: ResultPath): PurchaseResult;
	/**
	 * How a purchase is sent when it is not one POST of `prepare`'s body: bulk SMS (a batch of POSTs of at
	 * most `batchSize` recipients), electricity (one re-send in the other MeterType after a refusal that
	 * proves nothing was made). Absent: the client sends `prepare`'s body once (client/purchase/execute.ts).
	 */
	send?(env: PurchaseEnv, req: Req, opts: BuyOptions, batchSize: number): Promise<PurchaseResult[]>;
}

/** The site fact naming the route a product's records live at on a site, where builds differ (client/site.ts). */
export const routeFact = (product: string): string => `route.${product}`;

/** The module with the path this site serves the product at, when one was learned (data coupons). */
export function atSite<M extends ProductModule<any>>(module: M, baseUrl: string): M {
	const path = siteFact<string>(baseUrl, routeFact(module.product));
	return path && path !== module.path ? { ...module, path } : module;
}

/**
 * What an order of pins (exam pins, recharge cards, data coupons) charged: these serializers name the
 * balances previous_balance / after_balance (newer builds balance_before / balance_after).
 */
/** A record of this order: to this recipient (searched by it), for this face value (airtime, electricity). */
export function sameFaceValue(recipient: string, kobo: number): MatchSpec {
	return {
		recipient,
		search: recipient,
		test: (r) => (r.details.faceValue as { kobo?: number } | undefined)?.kobo === kobo,
	};
}

/** What a product reads from its own record row; the rest (id, status, dates) is the family's (parseBase). */
export type RecordFields = Parameters<typeof result>[3];

/** A product's `parse`: the family's record base, then the product's own fields from the row. */
export function recordParser(
	product: Product,
	fields: (o: Record<string, unknown>) => RecordFields,
): ProductModule['parse'] {
	return (raw, path) => {
		const b = parseBase(raw, product);
		return result(product, b, path, fields(b.o));
	};
}

/**
 * A record's wallet money: the balance before and after (either family spelling) and what was charged:
 * `paid` where the record says it, else what left the wallet, else `fallback`.
 */
export function recordMoney(
	o: Record<string, unknown>,
	paid: Money | null,
	fallback?: Money | null,
): { amount: Money; before: Money | null; after: Money | null } {
	const before = firstMoney(o.balance_before, o.previous_balance);
	const after = firstMoney(o.balance_after, o.after_balance);
	return { amount: charged(paid, before, after, fallback), before, after };
}

export function pinOrderMoney(o: Record<string, unknown>): {
	amount: Money;
	before: Money | null;
	after: Money | null;
} {
	const before = firstMoney(o.previous_balance, o.balance_before);
	const after = firstMoney(o.after_balance, o.balance_after);
	return { amount: charged(firstMoney(o.amount, o.paid_amount), before, after), before, after };
}

export function invalid(field: string, message: string, details?: Record<string, unknown>): VtuInvalidInputError {
	return new VtuInvalidInputError(message, details ? { field, details } : { field });
}

/** Keys removed from `raw`: `password` anywhere; `pin`/`transaction_pin`/`token`/`key` of a user payload. */
const PASSWORD = /^password$/i;
const USER_SECRET = /^(pin|transaction_pin|token|key)$/i;

function dropKey(k: string, userLike: boolean): boolean {
	const n = k.length; // length gates first: these tests run for every key of every record
	if (n === 8 && PASSWORD.test(k)) return true;
	if (userLike && (n === 3 || n === 5 || n === 15) && USER_SECRET.test(k)) return true;
	return n === 9 && k === '__proto__'; // an own "__proto__" key (JSON.parse makes one) is never copied
}

function isUserLike(o: Record<string, unknown>, parentKey: string): boolean {
	return parentKey === 'user' || 'username' in o || 'Account_Balance' in o;
}

/** Is there anything `scrubRaw` would remove (same depth limit)? Allocation-free apart from key lists. */
function needsScrub(v: unknown, depth: number, parentKey: string): boolean {
	if (depth > 6 || v === null || typeof v !== 'object') return false;
	if (Array.isArray(v)) {
		for (let i = 0; i < v.length; i++) if (needsScrub(v[i], depth + 1, parentKey)) return true;
		return false;
	}
	const o = v as Record<string, unknown>;
	const userLike = isUserLike(o, parentKey);
	for (const k of Object.keys(o)) {
		if (dropKey(k, userLike)) return true;
		const x = o[k];
		if (x !== null && typeof x === 'object' && needsScrub(x, depth + 1, k)) return true;
	}
	return false;
}

function scrubCopy(v: unknown, depth: number, parentKey: string): unknown {
	if (depth > 6 || v === null || typeof v !== 'object') return v;
	if (Array.isArray(v)) return v.map((x) => scrubCopy(x, depth + 1, parentKey));
	const o = v as Record<string, unknown>;
	const userLike = isUserLike(o, parentKey);
	const out: Record<string, unknown> = {};
	for (const [k, x] of Object.entries(o)) {
		if (dropKey(k, userLike)) continue;
		out[k] = scrubCopy(x, depth + 1, k);
	}
	return out;
}

/**
 * Remove `password` anywhere, and `pin` of a user payload (objects having a username or under `user`).
 * Copy-on-write: the value itself is returned when there is nothing to remove (the usual record), else a
 * copy without those keys. Callers pass values they own (freshly parsed bodies), so nothing is shared
 * with anyone else.
 */
export function scrubRaw(v: unknown, depth = 0, parentKey = ''): unknown {
	if (depth > 6 || v === null || typeof v !== 'object') return v;
	return needsScrub(v, depth, parentKey) ? scrubCopy(v, depth, parentKey) : v;
}

const zBase = z
	.object({
		id: zId,
		Status: z.string().optional(),
		status: z.string().optional(),
		ident: z.union([z.string(), z.number(), z.null()]).optional(),
		create_date: z.union([z.string(), z.null()]).optional(),
	})
	.passthrough();

export interface BaseRecord {
	id: number;
	status: TransactionStatus;
	ident: string | null;
	createdAt: string | null;
	o: Record<string, unknown>;
}

const ID_STRING = /^\s*\d+\s*$/;

/**
 * `zBase.safeParse(raw)` for the usual record, without zod: the same checks and the same output object
 * (shape keys first, then the others; `__proto__` and undefined extras dropped, `id` as a number).
 * `null` when anything is off: the caller then runs zod for the exact verdict and message.
 */
function parseBaseFast(raw: unknown): { id: number; o: Record<string, unknown> } | null {
	if (typeof raw !== 'object' || raw === null || Object.getPrototypeOf(raw) !== Object.prototype) return null;
	const r = raw as Record<string, unknown>;
	if (typeof r.then === 'function' && typeof r.catch === 'function') return null; // zod: a "promise", not an object
	const rid = r.id;
	let id: number;
	if (typeof rid === 'number') {
		if (!Number.isInteger(rid)) return null;
		id = rid;
	} else if (typeof rid === 'string' && ID_STRING.test(rid)) id = Number(rid.trim());
	else return null;
	const S = r.Status,
		s = r.status,
		ident = r.ident,
		cd = r.create_date;
	if (S !== undefined && typeof S !== 'string') return null;
	if (s !== undefined && typeof s !== 'string') return null;
	if (
		ident !== undefined &&
		ident !== null &&
		typeof ident !== 'string' &&
		(typeof ident !== 'number' || Number.isNaN(ident))
	)
		return null;
	if (cd !== undefined && cd !== null && typeof cd !== 'string') return null;
	const o: Record<string, unknown> = { id };
	if ('Status' in r) o.Status = S;
	if ('status' in r) o.status = s;
	if ('ident' in r) o.ident = ident;
	if ('create_date' in r) o.create_date = cd;
	for (const k in r) {
		if (k === 'id' || k === 'Status' || k === 'status' || k === 'ident' || k === 'create_date' || k === '__proto__')
			continue;
		const v = r[k];
		if (v !== undefined) o[k] = v;
	}
	return { id, o };
}

export function parseBase(raw: unknown, product: Product): BaseRecord {
	let base = parseBaseFast(raw);
	if (!base) {
		const p = zBase.safeParse(raw);
		if (!p.success) {
			throw new VtuBadResponseError(`The ${product} record has an unexpected shape: ${zodSummary(p.error)}`, {
				details: { product },
			});
		}
		base = { id: p.data.id, o: p.data as Record<string, unknown> };
	}
	const o = base.o;
	const rawStatus = (o.Status ?? o.status) as string | undefined;
	const st = normalizeStatus(rawStatus);
	if (!st) {
		throw new VtuBadResponseError(
			`The ${product} record has no known Status (got ${JSON.stringify(rawStatus ?? null)})`,
			{ details: { product } },
		);
	}
	const ident = o.ident == null || o.ident === '' ? null : String(o.ident);
	return { id: base.id, status: st, ident, createdAt: (o.create_date as string | null | undefined) ?? null, o };
}

export function m(v: unknown): Money | null {
	const k = tryParseKobo(v, true);
	return k === null ? null : money(k);
}

export function firstMoney(...vals: unknown[]): Money | null {
	for (const v of vals) {
		if (v === undefined || v === null || v === '') continue;
		const r = m(v);
		if (r) return r;
	}
	return null;
}

export function text(v: unknown): string {
	return v == null ? '' : String(v);
}

/** Amount charged: explicit field, else balance difference, else zero. */
export function charged(
	explicit: Money | null,
	before: Money | null,
	after: Money | null,
	fallback?: Money | null,
): Money {
	if (explicit) return explicit;
	if (before && after && before.kobo > after.kobo) return money(before.kobo - after.kobo);
	return fallback ?? money(0);
}

export function result(
	product: Product,
	b: BaseRecord,
	path: ResultPath,
	f: {
		amount: Money;
		before: Money | null;
		after: Money | null;
		recipient: string | null;
		details: Record<string, unknown>;
		message?: string;
	},
): PurchaseResult {
	return {
		product,
		id: b.id,
		ident: b.ident,
		status: b.status,
		amount: f.amount,
		balanceBefore: f.before,
		balanceAfter: f.after,
		recipient: f.recipient,
		details: f.details,
		message: f.message ?? text(b.o.api_response ?? b.o.message ?? b.o.response ?? ''),
		createdAt: b.createdAt,
		path,
		raw: scrubRaw(b.o),
	};
}

/**
 * A catalogue entry by id (number or digit string), exact name or documented alias (schemas/aliases.ts),
 * case and punctuation ignored. Anything else, or a name that fits several entries, is invalid_input
 * listing the choices: never a guess.
 */
export function resolveChoice<T>(c: Choices<T>, input: unknown, field: string, what: string): T {
	const choices = `Type one of: ${c.listing || 'none listed by this site'}`;
	let hits: T[] | undefined;
	if (typeof input === 'number' || (typeof input === 'string' && c.byId.size > 0 && /^\s*\d+\s*$/.test(input))) {
		const t = c.byId.get(Number(input));
		if (t) return t;
		throw invalid(field, `${field} ${shown(input)} is not the id of ${what} on this site. ${choices}.`);
	}
	if (typeof input !== 'string')
		throw invalid(field, `${field} must be a name or an id (text or a number), not ${shown(input)}. ${choices}.`);
	const k = nameKey(input);
	if (k) hits = c.byName.get(k) ?? c.byGroup.get(c.aliases.get(k) ?? '');
	if (hits?.length === 1) return hits[0];
	if (hits) {
		throw invalid(
			field,
			`${field} ${shown(input)} fits several entries on this site: ${hits.map(c.label).join(', ')}. Type the id of the ` +
				`one you mean.`,
		);
	}
	throw invalid(
		field,
		`${field} ${shown(input)} is not ${what} of this site (an id, the exact name or a listed alias is needed). ` +
			`${choices}.`,
	);
}

export function resolveNetwork(idx: CatalogIndex, network: unknown, field = 'network'): NetworkInfo {
	return resolveChoice(idx.networks, network, field, 'a network');
}

/** A record id for a detail URL: a positive whole number (never text that could change the path). */
export function recordId(v: unknown): number {
	return parseId(v, 'id', "the record's numeric id, e.g. 1234");
}

/** An optional yes/no field (absent → false); the one rule of client/input.ts. */
export function optionalBoolean(v: unknown, field: string): boolean {
	return parseBoolean(v, field, false);
}

// The product modules' names for the parsers of client/input.ts (one implementation, used everywhere).
export {
	optionalText,
	parseId as requireInt,
	parseQuantity as requireQuantity,
	parseDigits as requireDigits,
} from '../input';

export function isRec(v: unknown): v is Record<string, unknown> {
	return isRecord(v);
}
