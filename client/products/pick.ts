/**
 * The catalogue entry a purchase names by id (a data plan, a cable package, a recharge card denomination),
 * checked to belong to the network or provider the purchase names. One function and one table of words serve
 * every product that sells an entry of a list; the words are those users already see (and that
 * nodes/shared/errors.ts rewrites for the n8n form).
 */
import type { CatalogIndex } from '../catalog';
import type { CablePackage, DataPlan, RechargeDenomination } from '../types';
import { invalid, requireInt } from './common';

interface Entries {
	data: DataPlan;
	data_coupon: DataPlan;
	cable: CablePackage;
	recharge_card: RechargeDenomination;
}

type ListField = 'plan' | 'package' | 'denomination';

const DATA_HINT = 'a data plan id from client.catalog.dataPlans()';
const COUPON_HINT = 'a data plan id from client.catalog.dataPlans(network)';
const CABLE_HINT = 'a cable package id from client.catalog.cable()';
const CARD_HINT = 'a denomination id from client.catalog.recharge()';

/**
 * A row a product: [request field, the entry's noun, "(it …)" with {of} the entry's owner, where to pick one
 * with {owner} the owner named, the id's hint]. Whole sentences, so that nodes/shared/errors.ts and its test
 * find them.
 */
const WORDS: Record<keyof Entries, readonly [ListField, string, string, string, string]> = {
	data: ['plan', 'data plan', 'is a {of} plan', "Pick one from client.catalog.dataPlans('{owner}').", DATA_HINT],
	data_coupon: ['plan', 'data plan', 'is {of}', 'Pick one from client.catalog.dataPlans("{owner}").', COUPON_HINT],
	cable: ['package', 'package', 'belongs to {of}', 'Pick one from client.catalog.cable().', CABLE_HINT],
	recharge_card: ['denomination', 'recharge card', 'is {of}', 'Pick one from client.catalog.recharge().', CARD_HINT],
};

function lists(idx: CatalogIndex): Record<ListField, Map<number, Entries[keyof Entries]>> {
	return { plan: idx.planById, package: idx.packageById, denomination: idx.rechargeById };
}

function ownerOf(e: Entries[keyof Entries]): { id: number; name: string } {
	return 'providerId' in e ? { id: e.providerId, name: e.provider } : { id: e.networkId, name: e.network };
}

/** The entry `input` names in `product`'s list, or a coded invalid_input that says where to pick one. */
export function pick<P extends keyof Entries>(
	idx: CatalogIndex,
	product: P,
	input: unknown,
	owner: { id: number; name: string | number },
): Entries[P] {
	const [field, noun, whose, pickFrom, hint] = WORDS[product];
	const id = requireInt(input, field, hint);
	const found = lists(idx)[field].get(id) as Entries[P] | undefined;
	if (found && ownerOf(found).id === owner.id) return found;
	const it = found ? ` (it ${whose.replace('{of}', ownerOf(found).name)})` : '';
	const where = pickFrom.replace('{owner}', String(owner.name));
	throw invalid(field, `${field} ${id} is not a ${owner.name} ${noun}${it}. ${where}`);
}
