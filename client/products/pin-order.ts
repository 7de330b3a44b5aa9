/**
 * What the orders of printed pins (recharge cards, data coupons) share: the quantity and the name printed on
 * them, the rule that finds an order's record, and the pins read from it.
 */
import type { CatalogIndex } from '../catalog';
import { optionalText, parseQuantity } from '../input';
import type { money } from '../money';
import { canonicalNetwork } from '../schemas/catalog';
import type { NetworkInfo, PurchaseResult } from '../types';
import { firstMoney, isRec, text, type MatchSpec } from './common';

/**
 * A record of this pin order (recharge cards, data coupons): the same list entry (`key` of its details),
 * quantity and network (by id where the record has one, else by name). Pin orders have no recipient to search.
 */
export function samePinOrder(key: string, id: number, quantity: number, net: NetworkInfo): MatchSpec {
	const sameNetwork = (r: PurchaseResult) =>
		Number(r.details.networkId) === net.id || canonicalNetwork(r.details.network) === canonicalNetwork(net.name);
	return {
		recipient: null,
		search: null,
		test: (r) => Number(r.details[key]) === id && Number(r.details.quantity) === quantity && sameNetwork(r),
	};
}

/**
 * How many pins an order (recharge cards, data coupons) asks for, and the name printed on them: the caller's,
 * else the account's, as the family's serializers refuse a blank name_on_card.
 */
export function pinOrder(
	req: { quantity: unknown; nameOnCard?: unknown },
	idx: CatalogIndex,
	limits: { quantity: { min: number; max: number }; nameOnCardChars: number },
	what: string,
): { quantity: number; name: string } {
	const quantity = parseQuantity(req.quantity, 'quantity', limits.quantity.min, limits.quantity.max);
	const max = limits.nameOnCardChars;
	const name = optionalText(req.nameOnCard, 'nameOnCard', what, max);
	return { quantity, name: name || (idx.profile.fullName || idx.profile.username || 'VTU').slice(0, max) };
}

export interface RechargeCard {
	pin: string;
	serial: string;
	loadCode: string;
	amount: ReturnType<typeof money> | null;
}

/** data_pin: [{model, pk, fields:{pin, serial, amount, load_code, ...}}] or flat rows, or a JSON string of them. */
export function parseCards(v: unknown): RechargeCard[] {
	if (typeof v === 'string') {
		try {
			v = JSON.parse(v);
		} catch {
			return [];
		}
	}
	if (!Array.isArray(v)) return [];
	const out: RechargeCard[] = [];
	for (const row of v) {
		if (!isRec(row)) continue;
		const f = isRec(row.fields) ? row.fields : row;
		out.push({
			pin: text(f.pin),
			serial: text(f.serial ?? f.serial_number),
			loadCode: text(f.load_code ?? f.loadCode),
			amount: firstMoney(f.amount),
		});
	}
	return out;
}
