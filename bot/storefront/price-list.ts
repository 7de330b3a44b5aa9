/**
 * The catalogue as the seller prices it: what each product's plan types and plans are called (to check what
 * the owner types in /setprice), and sample items with the vendor's cost (for /prices and for the margin
 * shown after a price change). Costs come from the client's cached catalogue: no purchase, no quote call.
 */
import { percentOf } from '../../client/money';
import { PRODUCT_TABLE } from '../../client/products/registry';
import type { Catalog } from '../../client/types';
import { normType, type PriceKey } from '../../store/prices';
import { t } from '../i18n';
import { naira } from '../orders';

/** How the owner names a product in /setprice, and its product id. */
export const PRODUCT_WORDS: Record<string, string> = {
	all: '*',
	data: 'data',
	airtime: 'airtime',
	cable: 'cable',
	electricity: 'electricity',
	exam: 'exam_pin',
	exam_pin: 'exam_pin',
	recharge: 'recharge_card',
	recharge_card: 'recharge_card',
	sms: 'sms',
};

/** One thing a customer can buy, with the vendor's cost: a line of the price list. */
export interface PricedItem {
	key: PriceKey;
	/** e.g. "1GB SME (30 days)", "₦1,000 airtime" */
	name: string;
	cost: number;
	/** the section it is listed under, e.g. "MTN data" */
	section: string;
}

const SAMPLE_AIRTIME = 100_000;
const SAMPLE_TOKEN = 500_000;
/** Bulk SMS is listed as two sample jobs of one page: to one number and to a list (an order's fixed part shows). */
const SAMPLE_SMS_NUMBERS = [1, 100];

function smsItems(c: Catalog): PricedItem[] {
	return SAMPLE_SMS_NUMBERS.map((n) => ({
		key: { product: 'sms', units: n },
		name: t('prices-sms-item', { numbers: t('sms-numbers', { n }) }),
		cost: n * c.sms.perPage.kobo,
		section: t('prices-section-sms'),
	}));
}

function dataItems(c: Catalog): PricedItem[] {
	return c.networks.flatMap((n) =>
		n.plans
			.filter((p) => p.available)
			.map((p) => ({
				key: { product: 'data', type: `${p.network} ${p.kind}`, plan: String(p.id) },
				name: `${p.size} ${p.kind}${p.validity ? ` (${p.validity})` : ''}`,
				cost: p.price.kobo,
				section: t('prices-section-data', { network: String(n.name) }),
			})),
	);
}

/** Each product's items, in the price list's order (electricity: a sample token, airtime: a sample top-up). */
const PRODUCT_ITEMS: Record<string, (c: Catalog) => PricedItem[]> = {
	data: dataItems,
	airtime: (c) =>
		c.airtime.map((a) => ({
			key: { product: 'airtime', type: String(a.network) },
			name: t('prices-airtime-item', { amount: naira(SAMPLE_AIRTIME), network: String(a.network) }),
			cost: percentOf(SAMPLE_AIRTIME, a.vtuPercent),
			section: t('prices-section-airtime'),
		})),
	cable: (c) =>
		c.cable.flatMap((p) =>
			p.packages.map((k) => ({
				key: { product: 'cable', type: String(p.name), plan: String(k.id) },
				name: `${p.name} ${k.name}`,
				cost: k.price.kobo,
				section: t('prices-section-cable'),
			})),
		),
	exam_pin: (c) =>
		c.exams.map((e) => ({
			key: { product: 'exam_pin', type: String(e.exam) },
			name: t('prices-exam-item', { exam: String(e.exam) }),
			cost: e.price.kobo,
			section: t('prices-section-exam'),
		})),
	recharge_card: (c) =>
		c.recharge.map((r) => ({
			key: { product: 'recharge_card', type: String(r.network), plan: String(r.id) },
			name: t('prices-recharge-item', { network: String(r.network), amount: naira(r.faceValue.kobo) }),
			cost: r.price.kobo,
			section: t('prices-section-recharge'),
		})),
	electricity: (c) =>
		c.discos.slice(0, 1).map(() => ({
			key: { product: 'electricity' },
			name: t('prices-electricity-item', { amount: naira(SAMPLE_TOKEN) }),
			cost: SAMPLE_TOKEN,
			section: t('prices-section-electricity'),
		})),
	sms: smsItems,
};

/**
 * Every item of the catalogue (electricity: a sample token, airtime: a sample top-up per network, bulk SMS:
 * one page to one number and to a hundred).
 */
export function catalogueItems(c: Catalog): PricedItem[] {
	return Object.values(PRODUCT_ITEMS).flatMap((items) => items(c));
}

const AIRTIME_MIN = PRODUCT_TABLE.airtime.limits.minKobo.VTU;
const ELECTRICITY_MIN = PRODUCT_TABLE.electricity.limits.minKobo;

/** The airtime of `faceKobo` on a network, at the vendor's discount (as client.quote prices a VTU top-up). */
export function airtimeItem(c: Catalog, network: string, faceKobo: number): PricedItem | null {
	const a = c.airtime.find((x) => String(x.network).toUpperCase() === network.toUpperCase());
	if (!a) return null;
	return {
		key: { product: 'airtime', type: String(a.network) },
		name: t('prices-airtime-item', { amount: naira(faceKobo), network: String(a.network) }),
		cost: percentOf(faceKobo, a.vtuPercent),
		section: t('prices-section-airtime'),
	};
}

/** A token of `faceKobo` from a disco (the vendor's cost is the face value). */
export function electricityItem(disco: string | undefined, faceKobo: number): PricedItem {
	return {
		key: { product: 'electricity', ...(disco && { type: disco }) },
		name: t('prices-electricity-item', { amount: naira(faceKobo) }),
		cost: faceKobo,
		section: t('prices-section-electricity'),
	};
}

/**
 * The smallest orders of a product: its listed items, and for a product whose amount is typed (airtime,
 * electricity) the product's minimum on each network or disco; bulk SMS: one page to one number.
 */
export function smallestItems(c: Catalog, product: string): PricedItem[] {
	if (product === 'airtime') return c.airtime.flatMap((a) => airtimeItem(c, String(a.network), AIRTIME_MIN) ?? []);
	if (product === 'electricity') return c.discos.map((d) => electricityItem(d.name, ELECTRICITY_MIN));
	// only this product's items: a flow start asks for one product, not the whole formatted price list
	const items = Object.hasOwn(PRODUCT_ITEMS, product) ? PRODUCT_ITEMS[product](c) : [];
	return product === 'sms' ? items.filter((i) => i.key.units === 1) : items;
}

/**
 * The cheapest order of `product` as `priceOf` prices an item (the vendor's cost in the till, the customer's
 * price in the storefront), or null when the catalogue lists none. The one rule behind "the wallet cannot pay
 * even the cheapest" at a flow's start, in both modes.
 */
export function cheapestOf(c: Catalog, product: string, priceOf: (i: PricedItem) => number): number | null {
	const items = smallestItems(c, product);
	return items.length ? Math.min(...items.map(priceOf)) : null;
}

/** The plan types the owner may name for a product (upper case), e.g. "MTN SME" for data, a disco for electricity. */
export function typesOf(c: Catalog, items: PricedItem[], product: string): string[] {
	const out = new Set<string>();
	for (const i of items) if (i.key.product === product && i.key.type) out.add(normType(i.key.type));
	if (product === 'electricity') for (const d of c.discos) out.add(normType(d.name));
	return [...out];
}

/**
 * The items a rule's scope covers. Electricity is listed as one sample token; a disco's rule is shown on a
 * sample token of that disco.
 */
export function itemsIn(c: Catalog, items: PricedItem[], product: string, scope: string): PricedItem[] {
	const disco = product === 'electricity' && scope.startsWith('type:') ? scope.slice(5) : null;
	if (disco && c.discos.some((d) => normType(d.name) === disco))
		return [
			{
				key: { product, type: disco },
				name: `${disco} ${t('prices-electricity-item', { amount: naira(SAMPLE_TOKEN) })}`,
				cost: SAMPLE_TOKEN,
				section: t('prices-section-electricity'),
			},
		];
	return items.filter((i) => {
		if (product !== '*' && i.key.product !== product) return false;
		if (scope.startsWith('type:')) return normType(i.key.type ?? '') === scope.slice(5);
		if (scope.startsWith('plan:')) return i.key.plan === scope.slice(5);
		return true;
	});
}
