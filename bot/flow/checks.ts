/**
 * Every check that can refuse a purchase, run before the Confirm button is shown: the price
 * (client.quote), the per-purchase and daily limits, the PIN (set, not locked) and the wallet
 * balance (with the shortfall); and whether the same purchase was made minutes ago.
 * The journal checks the limits again inside the created→sent transaction.
 */
import type { ConvContext, MyConversation, Services } from '../context';
import { naira, productName } from '../orders';
import { cheapestOf, type PricedItem } from '../storefront/price-list';
import type { Affordable } from '../storefront/service';
import type { Catalog } from '../../client/types';
import type { BotPurchaseRequest } from '../vtu';
import type { ConfirmMeta } from './retry';
import { tryAgainKeyboard, type Place } from './keyboards';
import { failText } from './pickers';
import { clockText } from './ui';
import { t } from '../i18n';
import { VtuError } from '../../client/errors';

export type Checked =
	| { ok: true; kobo: number; balanceKobo: number | null; repeat: { ago: string; ref: string } | null }
	| { ok: false; text: string; retry?: { place: Place; label: string }; input?: { field?: string } };

/** States of an order that was (or may have been) bought: a new identical one is a repeat. */
const BOUGHT = new Set(['sent', 'successful', 'processing', 'unknown']);

export function agoText(ms: number): string {
	const sec = Math.max(1, Math.round(ms / 1000));
	return sec < 90 ? t('ago-seconds', { n: sec }) : t('ago-minutes', { n: Math.round(sec / 60) });
}

/** The vendor's price of `req`, or the refusal (a detail refused, named or not: not the same choices again). */
async function quote(s: Services, req: BotPurchaseRequest): Promise<{ ok: true; kobo: number } | Checked> {
	try {
		return { ok: true, kobo: (await s.client.quote(req)).amount.kobo };
	} catch (e) {
		const text = t('check-nothing-bought', { text: failText(s, t('check-cannot-buy'), e) });
		return e instanceof VtuError && e.code === 'invalid_input'
			? { ok: false, text, input: { field: e.field } }
			: { ok: false, text };
	}
}

/**
 * The vendor wallet cannot pay even the cheapest order of `product` (price-list.ts cheapestOf, at the
 * vendor's cost: the rule the storefront applies to a customer's wallet). A balance seen within a minute
 * answers without a vendor call; one that cannot be read, or a catalogue that cannot, refuses nothing.
 */
async function walletRefusal(s: Services, product: string): Promise<Checked | null> {
	let cheapest: number | null;
	try {
		cheapest = cheapestOf(await s.client.catalog.get(), product, (i) => i.cost);
	} catch (e) {
		s.logger.warn('cheapest price not known at flow start', { product, err: e instanceof Error ? e.message : e });
		return null;
	}
	if (cheapest === null) return null;
	const w = await s.vendorWallet.covers(cheapest);
	if (!w?.short) return null;
	const vars = { balance: naira(w.balance), price: naira(cheapest), product: productName(product) };
	return { ok: false, text: t('check-below-cheapest', vars) };
}

export function purchaseChecks(s: Services) {
	function limitRefusal(userId: number, kobo: number): string | null {
		if (kobo > s.cfg.maxPurchaseKobo)
			return t('check-over-max', { amount: naira(kobo), limit: naira(s.cfg.maxPurchaseKobo) });
		const spent = s.journal.spentToday(userId);
		if (spent + kobo <= s.cfg.dailyLimitKobo) return null;
		const left = Math.max(0, s.cfg.dailyLimitKobo - spent);
		return t('check-over-daily', { amount: naira(kobo), limit: naira(s.cfg.dailyLimitKobo), left: naira(left) });
	}

	function pinRefusal(userId: number): Checked | null {
		if (!s.cfg.pinRequired) return null;
		if (!s.pins.has(userId)) {
			return { ok: false, text: t('check-pin-required'), retry: { place: 'setpin', label: t('btn-set-pin') } };
		}
		const locked = s.pins.lockedUntil(userId);
		if (locked) return { ok: false, text: t('check-pin-locked', { until: clockText(locked) }) };
		return null;
	}

	function recentSame(userId: number, req: BotPurchaseRequest, meta: ConfirmMeta): { ago: string; ref: string } | null {
		const now = s.clock.now();
		const same = s.journal
			.recentForUser(userId, 20)
			.find(
				(o) =>
					o.createdAt >= now - s.cfg.repeatWindowMs &&
					BOUGHT.has(o.state) &&
					o.product === req.product &&
					o.recipient === meta.recipient &&
					o.description === meta.description,
			);
		return same ? { ago: agoText(now - same.createdAt), ref: same.id } : null;
	}

	/**
	 * What refuses any order of this user whatever they choose (PIN not set or locked, daily limit used up, a
	 * vendor wallet short of the cheapest order of `product`), said when a flow starts, before network, plan
	 * and number are typed.
	 */
	async function early(userId: number, product?: string): Promise<Checked | null> {
		// the storefront: a wallet that cannot pay the cheapest item, or a float the vendor refused a moment ago
		if (s.storefront) return s.storefront.earlyRefusal(userId, product);
		const pin = pinRefusal(userId);
		if (pin) return pin;
		const spent = s.journal.spentToday(userId);
		if (spent >= s.cfg.dailyLimitKobo)
			return { ok: false, text: t('check-daily-used', { limit: naira(s.cfg.dailyLimitKobo) }) };
		return product ? walletRefusal(s, product) : null;
	}

	/** Runs inside conversation.external: price, limits, PIN, balance, repeat. */
	async function check(userId: number, req: BotPurchaseRequest, meta: ConfirmMeta): Promise<Checked> {
		const quoted = await quote(s, req);
		if (!quoted.ok) return quoted;
		const kobo = quoted.kobo;
		const limit = limitRefusal(userId, kobo);
		if (limit) return { ok: false, text: limit };
		const pin = pinRefusal(userId);
		if (pin) return pin;
		let balanceKobo: number | null = null;
		try {
			balanceKobo = (await s.walletBalance()).kobo;
		} catch (e) {
			// Not a refusal: the vendor refuses a purchase the wallet cannot pay, and says so.
			s.logger.warn('balance check before confirm failed', { err: e instanceof Error ? e.message : String(e) });
		}
		if (balanceKobo !== null && balanceKobo < kobo) {
			return {
				ok: false,
				text: t('check-short', { balance: naira(balanceKobo), price: naira(kobo), short: naira(kobo - balanceKobo) }),
			};
		}
		return { ok: true, kobo, balanceKobo, repeat: recentSame(userId, req, meta) };
	}

	return { check, early };
}

/**
 * At the start of a buying flow: a refusal that applies to every order is said now (with its
 * "Try again" / "Set PIN" buttons) and the flow ends. Returns true when the flow was refused.
 */
export async function refusedUpFront(
	s: Services,
	conversation: MyConversation,
	ctx: ConvContext,
	place: Place,
): Promise<boolean> {
	const userId = ctx.from!.id;
	const r = await conversation.external(() => purchaseChecks(s).early(userId, place));
	if (!r || r.ok) return false;
	await ctx.reply(r.text, { reply_markup: tryAgainKeyboard(r.retry?.place ?? place, r.retry?.label) });
	return true;
}

/** The most a customer may type for a product whose amount they choose; `wallet`: lowered to what their wallet pays. */
export interface AmountCap {
	max: number;
	wallet: boolean;
}

/**
 * The range of a typed amount (airtime, electricity) from `min` to `max`: in the storefront, `max` lowered to
 * what the customer's wallet pays at their price (StoreSide.affordable; `item` is the order of a face value).
 * A wallet short of even `min` is said now (with Fund wallet) and the flow ends: null. A wallet that cannot
 * be read lowers nothing (the checks at Confirm still run).
 */
export async function amountCap(
	s: Services,
	conversation: MyConversation,
	ctx: ConvContext,
	a: { place: Place; min: number; max: number; item: (c: Catalog, faceKobo: number) => PricedItem | null },
): Promise<AmountCap | null> {
	const side = s.storefront;
	if (!side) return { max: a.max, wallet: false };
	const userId = ctx.from!.id;
	const r = await conversation.external(async (): Promise<Affordable> => {
		try {
			const c = await s.client.catalog.get();
			return await side.affordable(userId, a.min, a.max, (face) => a.item(c, face));
		} catch (e) {
			s.logger.warn('wallet not read for the amount range', { err: e instanceof Error ? e.message : e });
			return { kind: 'all' };
		}
	});
	if (r.kind === 'all') return { max: a.max, wallet: false };
	if (r.kind === 'upto') return { max: r.max, wallet: true };
	const vars = { available: naira(r.available), price: naira(r.price), product: productName(a.place) };
	await ctx.reply(t('sf-wallet-below-cheapest', vars), { reply_markup: tryAgainKeyboard('fund', t('btn-fund')) });
	return null;
}
