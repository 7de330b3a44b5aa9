/**
 * The seller's prices. A price is the vendor's cost plus a markup: a percent of the cost and/or a fixed
 * amount in kobo. The seller sets markups per product, per plan type (e.g. "MTN SME") or per plan, and per
 * customer tier (regular, reseller); they live in the store database (`price_rules`), so every instance
 * prices alike the moment the owner changes one. `Prices.priceOf` is the one pricing function the
 * storefront's buy path uses; the configured markup (STORE_MARKUP_PERCENT / _NAIRA) is the fallback.
 *
 * Which rule applies: the customer's tier first, then the regular tier; within a tier the most specific
 * (plan, then plan type, then the product, then every product `*`). No rule at all: the fallback.
 *
 * Bulk SMS is sold by the unit (one page to one number; its key carries `units`): a percent is of the whole
 * cost as for any product, but the fixed amount of a rule set for `sms` itself is per unit ("₦1" makes a
 * ₦2.50 page ₦3.50), since SMS sellers price by the page. A fixed amount from an every-product rule or the
 * configured fallback stays per order: "₦50 an order" must not become ₦50 a page.
 */
import { VtuInvalidInputError } from '../client/errors';
import { percentOf, percentString } from '../client/money';
import { planSms } from '../client/products/sms/plan';
import type { Catalog, PurchaseRequest } from '../client/types';
import type { PriceRuleRow, StoreDb } from './db';

export const TIERS = ['regular', 'reseller'] as const;
export type Tier = (typeof TIERS)[number];

export const PRICED_PRODUCTS = ['data', 'airtime', 'cable', 'electricity', 'exam_pin', 'recharge_card', 'sms'];

/** What a request is priced by: its product, plan type and plan (as the catalogue names them). */
export interface PriceKey {
	product: string;
	/** e.g. "MTN SME" (data), "MTN" (airtime, recharge cards), "DSTV" (cable), "WAEC" (exam pins) */
	type?: string;
	/** the plan's id (data plan, cable package, recharge card denomination) */
	plan?: string;
	/** how many units the cost is for (bulk SMS: numbers × pages); the product's own fixed markup is per unit */
	units?: number;
}

export interface Markup {
	/** exact decimal percent, e.g. "5" or "2.5" */
	percent?: string;
	/** fixed kobo per order */
	fixedKobo?: number;
}

export interface PriceRule extends Markup {
	product: string;
	/** '' = the whole product, 'type:<name>', 'plan:<id>' */
	scope: string;
	tier: Tier;
}

export interface Priced {
	cost: number;
	price: number;
	/** price − cost */
	margin: number;
	/** the rule that set it, or null for the configured fallback */
	rule: PriceRule | null;
}

/** `cost` plus the markup: the percent of the whole cost, the fixed amount `times` times (per unit or once). */
export function applyMarkup(cost: number, m: Markup, times = 1): number {
	return cost + (m.percent ? percentOf(cost, m.percent) : 0) + (m.fixedKobo ?? 0) * times;
}

/** A plan type as it is stored and compared: upper case, single spaces. */
export const normType = (s: string) => s.trim().replace(/\s+/g, ' ').toUpperCase();

const now = () => new Date().toISOString();

/** The scopes a key matches, most specific first. */
function scopesOf(key: PriceKey): [string, string][] {
	const out: [string, string][] = [];
	if (key.plan) out.push([key.product, `plan:${key.plan}`]);
	if (key.type) out.push([key.product, `type:${normType(key.type)}`]);
	out.push([key.product, ''], ['*', '']);
	return out;
}

/** The rules of one tier, resolved in memory: a price list of many plans costs one database read. */
export class PriceTable {
	private readonly byKey = new Map<string, PriceRule>();

	constructor(
		rules: PriceRule[],
		readonly tier: Tier,
		readonly fallback: Markup,
	) {
		for (const r of rules) this.byKey.set(`${r.tier}\u0000${r.product}\u0000${r.scope}`, r);
	}

	/** The rule for `key` (customer's tier, then regular; most specific first), or null. */
	ruleFor(key: PriceKey): PriceRule | null {
		const tiers: Tier[] = this.tier === 'regular' ? ['regular'] : [this.tier, 'regular'];
		for (const tier of tiers)
			for (const [product, scope] of scopesOf(key)) {
				const r = this.byKey.get(`${tier}\u0000${product}\u0000${scope}`);
				if (r) return r;
			}
		return null;
	}

	price(key: PriceKey, cost: number): Priced {
		const rule = this.ruleFor(key);
		// per unit only for the product's own rules (see the top of this file)
		const times = rule && rule.product === key.product && key.units ? key.units : 1;
		const price = applyMarkup(cost, rule ?? this.fallback, times);
		return { cost, price, margin: price - cost, rule };
	}
}

function rowToRule(r: PriceRuleRow): PriceRule {
	return {
		product: r.product,
		scope: r.scope,
		tier: r.tier as Tier,
		percent: r.percent ?? undefined,
		fixedKobo: Number(r.fixed) || undefined,
	};
}

export function parseTier(v: string): Tier | null {
	const t = v.trim().toLowerCase();
	return (TIERS as readonly string[]).includes(t) ? (t as Tier) : null;
}

/** A markup as the owner types it: "5%", "2.5%", "₦20", "+20", "20" (naira). */
export function parseMarkup(v: string): Markup | null {
	const s = v.trim().replace(/^\+/, '');
	if (s.endsWith('%')) {
		const p = percentString(s);
		return p !== null && Number(p) <= 100 ? (p === '0' ? {} : { percent: p }) : null;
	}
	const m = /^₦?(\d{1,6})(?:\.(\d{1,2}))?$/.exec(s.replace(/,/g, ''));
	if (!m) return null;
	const kobo = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
	return kobo ? { fixedKobo: kobo } : {};
}

export class Prices {
	constructor(
		readonly db: StoreDb,
		/** the configured markup, used where no rule applies */
		readonly fallback: Markup = {},
	) {}

	async rules(): Promise<PriceRule[]> {
		const rows = await this.db.selectFrom('price_rules').selectAll().orderBy('product').orderBy('scope').execute();
		return rows.map(rowToRule);
	}

	/** Sets (or replaces) one rule. Percent and fixed are checked: whole kobo, 0-100 %. */
	async set(rule: PriceRule, by: string): Promise<void> {
		const percent = rule.percent === undefined ? null : percentString(rule.percent);
		if (rule.percent !== undefined && (percent === null || Number(percent) > 100))
			throw new VtuInvalidInputError('a percent markup is 0 to 100, e.g. 5 or 2.5.', { field: 'percent' });
		const fixed = rule.fixedKobo ?? 0;
		if (!Number.isSafeInteger(fixed) || fixed < 0)
			throw new VtuInvalidInputError('a fixed markup is whole kobo, 0 or more.', { field: 'fixed' });
		if (!parseTier(rule.tier)) throw new VtuInvalidInputError('tier is regular or reseller.', { field: 'tier' });
		const row = {
			product: rule.product,
			scope: rule.scope,
			tier: rule.tier,
			percent,
			fixed,
			updated_by: by,
			updated_at: now(),
		};
		await this.db
			.insertInto('price_rules')
			.values(row)
			.onConflict((oc) =>
				oc
					.columns(['product', 'scope', 'tier'])
					.doUpdateSet({ percent, fixed, updated_by: by, updated_at: row.updated_at }),
			)
			.execute();
	}

	/** Removes a rule (the next one down applies again). False when there was none. */
	async remove(product: string, scope: string, tier: Tier): Promise<boolean> {
		const r = await this.db
			.deleteFrom('price_rules')
			.where('product', '=', product)
			.where('scope', '=', scope)
			.where('tier', '=', tier)
			.executeTakeFirst();
		return Number(r.numDeletedRows) > 0;
	}

	async tierOf(customerId: string): Promise<Tier> {
		const r = await this.db
			.selectFrom('customer_profiles')
			.select('tier')
			.where('customer_id', '=', customerId)
			.executeTakeFirst();
		return parseTier(r?.tier ?? '') ?? 'regular';
	}

	/** The customer's tier (the customer must exist). */
	async setTier(customerId: string, tier: Tier): Promise<void> {
		await this.db
			.insertInto('customer_profiles')
			.values({ customer_id: customerId, username: null, tier, updated_at: now() })
			.onConflict((oc) => oc.column('customer_id').doUpdateSet({ tier, updated_at: now() }))
			.execute();
	}

	/** The price list of one tier (one read). */
	async table(tier: Tier): Promise<PriceTable> {
		return new PriceTable(await this.rules(), tier, this.fallback);
	}

	/** The one pricing function: what `customerId` pays for `key` at the vendor's `cost`. */
	async priceOf(customerId: string, key: PriceKey, cost: number): Promise<Priced> {
		const [rules, tier] = await Promise.all([this.rules(), this.tierOf(customerId)]); // two reads at once
		return new PriceTable(rules, tier, this.fallback).price(key, cost);
	}
}

/** A data plan's price key (its network and kind are its plan type). */
export const dataPriceKey = (p: { id: number; network: string; kind: string }): PriceKey => ({
	product: 'data',
	type: `${p.network} ${p.kind}`,
	plan: String(p.id),
});

type CatalogReader = { get(): Promise<Catalog> };

const same = (a: string | number, b: string | number) =>
	String(a).trim().toUpperCase() === String(b).trim().toUpperCase();

/** The price key of a request, from the catalogue (the client caches it: no extra request). */
export async function priceKeyOf(catalog: CatalogReader, req: PurchaseRequest): Promise<PriceKey> {
	const c = await catalog.get();
	const net = (n: string | number) => c.networks.find((x) => x.id === Number(n) || same(x.name, n));
	switch (req.product) {
		case 'data': {
			const plan = net(req.network)?.plans.find((p) => p.id === Number(req.plan));
			return plan ? dataPriceKey(plan) : { product: 'data', plan: String(req.plan) };
		}
		case 'airtime':
			return { product: 'airtime', type: net(req.network)?.name };
		case 'cable': {
			const p = c.cable.find((x) => x.id === Number(req.provider) || same(x.name, req.provider));
			return { product: 'cable', type: p?.name, plan: String(req.package) };
		}
		case 'electricity': {
			const d = c.discos.find((x) => x.id === Number(req.disco) || same(x.name, req.disco));
			return { product: 'electricity', type: d?.name };
		}
		case 'exam_pin':
			return { product: 'exam_pin', type: String(req.exam) };
		case 'recharge_card':
			return { product: 'recharge_card', type: net(req.network)?.name, plan: String(req.denomination) };
		case 'sms': {
			// the client's own plan of the job (numbers deduplicated, pages as the site counts them); the rate
			// does not change the count
			const plan = planSms(req, c.sms);
			return { product: 'sms', units: plan.recipients.length * plan.pages };
		}
		default:
			return { product: req.product };
	}
}
