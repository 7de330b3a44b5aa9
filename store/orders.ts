/**
 * Buying from the wallet. The customer's money is held before the vendor purchase and then:
 * settled when the vendor made it; released only when provably not bought (`not_charged`, or the site refused
 * the purchase itself: `invalid_input`); kept held while the outcome is
 * unknown (resolved later with `client.reconcile`); refunded exactly once when the vendor fails it, at once
 * or later (a `processing` order that flips to `failed`). The float guard refuses an order the merchant's
 * vendor wallet cannot cover before anything is held, and alerts the owner once per low-balance episode.
 */
import { VtuError, VtuInsufficientBalanceError, VtuInvalidInputError } from '../client/errors';
import { refOf } from '../client/purchase/claims';
import { newCustomerRef } from '../client/purchase/execute';
import type { VtuClient } from '../client/client';
import type { PurchaseRequest, PurchaseResult } from '../client/types';
import type { OrderRow, StoreDb, StoreTables } from './db';
import { OnceAlerts } from './alerts';
import { isAlreadyWritten, retryOnDeadlock, type Books } from './ledger';
import { applyMarkup, Prices, priceKeyOf } from './prices';
import type { Transaction } from 'kysely';

const ADOPT_REFUSED =
	'A matching vendor record was found, but another open order of the shop is identical or owns it: checking again.';

/**
 * Other open orders with the very same request that a lone record could belong to instead: every held one
 * (it may be in its purchase right now) and every unknown one, except the same customer's at the same price.
 * Those are interchangeable: whichever of them takes the record, that customer pays once for what was bought
 * once, and the other is followed to its own end (the record is then claimed, not a candidate).
 */
async function openIdentical(db: StoreDb | Transaction<StoreTables>, o: OrderRow): Promise<number> {
	const row = await db
		.selectFrom('orders')
		.select((eb) => eb.fn.countAll<number>().as('n'))
		.where('id', '<>', o.id)
		.where('request', '=', o.request)
		.where((eb) =>
			eb.or([
				eb('state', '=', 'held'),
				eb.and([
					eb('state', '=', 'unknown'),
					eb.or([eb('customer_id', '<>', o.customer_id), eb('price', '<>', o.price)]),
				]),
			]),
		)
		.executeTakeFirst();
	return Number(row?.n ?? 0);
}

export interface Pricing {
	/** the seller's markup on the vendor's price, e.g. "5" or "2.5" (percent) */
	markupPercent?: string | number;
	/** plus a fixed markup in kobo */
	markupKobo?: number;
}

export interface OrderDeps {
	books: Books;
	client: VtuClient;
	/**
	 * The client `follow()` reconciles with (default: `client`). When the shop's instances are the vendor
	 * token's only buyers, give one with `reconcile.sharedAccount: false`: follow() passes it every other
	 * order's record and the open identical orders from the shared orders table, so a lone record can be
	 * adopted safely there, while `client` (shared: true) never adopts one inside a purchase, where another
	 * instance's identical order in flight is invisible.
	 */
	followClient?: VtuClient;
	pricing?: Pricing;
	/** The seller's prices (store/prices.ts); default: `pricing` for everyone, plus any rules in the database. */
	prices?: Prices;
	/** vendor wallet level (kobo) under which the owner is alerted, once until it recovers */
	lowFloatKobo?: number;
	alertOwner?: (text: string) => void;
	/**
	 * Send each order's purchase with a customer_ref chosen here and written with its hold, before the POST
	 * (the bot's VTU_CUSTOMER_REF): after a crash mid-purchase, follow() passes it to reconcile, and on a
	 * site that echoes it the record carrying it is proven the order's, whatever else buys on the token.
	 */
	customerRef?: boolean;
}

export type OrderState = 'held' | 'unknown' | 'settled' | 'released' | 'refunded';

export interface OrderOutcome {
	orderId: string;
	state: OrderState;
	price: number;
	result?: PurchaseResult;
	/** for `unknown`: when a proven answer becomes possible */
	resolvableAfter?: string;
	error?: VtuError;
}

export class Storefront {
	/** the low-float alert's state is in the database: one alert per crossing across every instance */
	private readonly alerts: OnceAlerts;
	readonly prices: Prices;

	constructor(readonly deps: OrderDeps) {
		this.alerts = new OnceAlerts(deps.books.db);
		const p = deps.pricing ?? {};
		this.prices =
			deps.prices ??
			new Prices(deps.books.db, {
				percent: p.markupPercent !== undefined ? String(p.markupPercent) : undefined,
				fixedKobo: p.markupKobo,
			});
	}

	/** The configured markup on a vendor cost (kobo), where the seller set no price rule. */
	priceFor(cost: number): number {
		return applyMarkup(cost, this.prices.fallback);
	}

	/** What this customer pays for `req` at the vendor's `cost`: the seller's rules (store/prices.ts). */
	async priceOf(customerId: string, req: PurchaseRequest, cost: number): Promise<number> {
		return (await this.prices.priceOf(customerId, await priceKeyOf(this.deps.client.catalog, req), cost)).price;
	}

	/** Refuses (nothing held) when the vendor wallet cannot cover `cost`; alerts the owner once when low. */
	async guardFloat(cost: number): Promise<void> {
		const float = (await this.deps.client.user.balance()).kobo;
		const low = this.deps.lowFloatKobo ?? 0;
		if (float - cost < low || float < cost) {
			if (await this.alerts.fire('low_float'))
				this.deps.alertOwner?.(
					`Vendor wallet is low: ₦${(float / 100).toFixed(2)} left; orders it cannot cover are refused until it is ` +
						`funded.`,
				);
		} else this.alerts.rearm('low_float'); // memory only: a healthy order reads nothing
		if (float < cost)
			throw new VtuInsufficientBalanceError(
				'The shop cannot fill this order right now. Nothing was taken from your wallet; please try again later.',
			);
	}

	/**
	 * Places one order. Throws `invalid_input` / `insufficient_balance` before anything is held; with
	 * `opts.price` (what the customer was shown), `invalid_input` too when the seller's price has changed since.
	 */
	async placeOrder(
		customerId: string,
		orderId: string,
		req: PurchaseRequest,
		opts: { price?: number } = {},
	): Promise<OrderOutcome> {
		if (!/^[A-Za-z0-9_.:-]{1,80}$/.test(orderId))
			throw new VtuInvalidInputError('order id must be 1-80 letters, digits or _ . : -', { field: 'orderId' });
		const { client } = this.deps;
		const quote = await client.quote(req);
		const cost = quote.amount.kobo;
		const price = await this.priceOf(customerId, req, cost);
		if (opts.price !== undefined && opts.price !== price)
			throw new VtuInvalidInputError('The price has changed since you saw it: nothing was taken. Start again.', {
				field: 'price',
			});
		await this.guardFloat(cost);
		const ref = this.deps.customerRef ? newCustomerRef() : null;
		await this.open(customerId, orderId, req, { price, cost, ref }); // refused → nothing held, nothing sent
		let r: PurchaseResult;
		try {
			r = await client.buy(req, ref === null ? undefined : { customerRef: ref });
		} catch (e) {
			return this.afterError(orderId, price, e, 'buy');
		}
		return this.apply(orderId, price, r);
	}

	/**
	 * The order's row and its hold, in one transaction: a crash or a refusal never leaves money held with no
	 * order to follow it, nor an order without its hold. An id already used is refused before anything is held.
	 * sent_at is stamped by the attempt that commits (a deadlock retry stamps again): it must not be later than
	 * the POST (the reconcile window starts there), and the nearer to it the tighter the window.
	 */
	private async open(
		customerId: string,
		orderId: string,
		req: PurchaseRequest,
		{ price, cost, ref }: { price: number; cost: number; ref: string | null },
	) {
		const { books } = this.deps;
		const taken = () =>
			new VtuInvalidInputError(`order id ${orderId} is already used: give each order a new id`, { field: 'orderId' });
		const run = () =>
			books.db.transaction().execute(async (tx) => {
				const at = new Date().toISOString();
				const row = await tx
					.insertInto('orders')
					.values({
						id: orderId,
						customer_id: customerId,
						request: JSON.stringify(req),
						price,
						cost,
						sent_at: at,
						vendor_product: null,
						vendor_id: null,
						state: 'held',
						created_at: at,
						customer_ref: ref,
					})
					.onConflict((oc) => oc.column('id').doNothing())
					.executeTakeFirst();
				if (Number(row.numInsertedOrUpdatedRows ?? 0) !== 1) throw taken();
				try {
					await books.hold(customerId, orderId, price, tx); // insufficient_balance → rolled back
				} catch (e) {
					throw isAlreadyWritten(e) ? taken() : e;
				}
			});
		await retryOnDeadlock(run);
	}

	/**
	 * `from`: the purchase's own error, or reconciling's. not_charged is proof either way; invalid_input only from
	 * the purchase: the site refused the POST itself (a 4xx, never reconciled: client/errors.ts NOT_CHARGED_CODES).
	 */
	private async afterError(orderId: string, price: number, e: unknown, from: 'buy' | 'follow'): Promise<OrderOutcome> {
		const refused = from === 'buy' && e instanceof VtuError && e.code === 'invalid_input';
		if (e instanceof VtuError && (e.code === 'not_charged' || refused)) {
			// a record linked to the order (by any instance, meanwhile) outweighs a reconcile's "not charged"
			if (await this.linked(orderId)) return this.follow(orderId);
			await this.deps.books.release(orderId);
			await this.setState(orderId, 'released');
			return { orderId, state: 'released', price, error: e };
		}
		// anything else proves nothing: the money stays held until the outcome is known
		await this.setState(orderId, 'unknown');
		const details =
			e instanceof VtuError ? (e as VtuError & { details?: { resolvableAfter?: string } }).details : undefined;
		return {
			orderId,
			state: 'unknown',
			price,
			resolvableAfter: details?.resolvableAfter,
			error: e instanceof VtuError ? e : undefined,
		};
	}

	/** Books what the vendor answered: a sale; and when it failed, its refund (once). */
	private async apply(orderId: string, price: number, r: PurchaseResult): Promise<OrderOutcome> {
		const { books } = this.deps;
		await books.db
			.updateTable('orders')
			.set({ vendor_product: r.product, vendor_id: r.id })
			.where('id', '=', orderId)
			.execute();
		const settled = await books.settle(orderId, r.amount.kobo > 0 ? r.amount.kobo : undefined);
		if (!settled && (await books.orderState(orderId)) === 'released') {
			// its hold was released (a follower took it for a crashed order and proved "not charged") while this
			// purchase was still running, and the vendor made it: never booked silently; the owner settles it
			this.deps.alertOwner?.(
				`Order ${orderId} was released while its purchase was still running, and the vendor made it ` +
					`(${r.product} #${r.id}, ${r.status}): the customer was not charged; settle it by hand.`,
			);
			await this.setState(orderId, 'released');
			return { orderId, state: 'released', price, result: r };
		}
		if (r.status === 'failed') {
			await books.refund(orderId, r.amount.kobo > 0 ? r.amount.kobo : undefined);
			await this.setState(orderId, 'refunded');
			return { orderId, state: 'refunded', price, result: r };
		}
		await this.setState(orderId, 'settled');
		return { orderId, state: 'settled', price, result: r };
	}

	/**
	 * Follows an order to its end: an unknown one is reconciled (bought → settled, proven not bought →
	 * released, still unclear → unchanged); a settled one whose record turned `failed` is refunded once.
	 */
	async follow(orderId: string): Promise<OrderOutcome> {
		const { books, client } = this.deps;
		const o = await books.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
		if (!o) throw new VtuError('not_found', `no order ${orderId}`);
		if ((o.state === 'unknown' || o.state === 'held') && o.vendor_product && o.vendor_id !== null) {
			// its record is already linked: an instance died (or failed) between linking it and settling. That
			// record is the outcome; reconciling instead would skip it (this process may hold it as claimed,
			// from following the other orders, whose evidence names every linked record) and "prove" not charged
			const r = await (this.deps.followClient ?? client).transactions.get(
				o.vendor_product as PurchaseResult['product'],
				o.vendor_id,
			);
			return this.apply(orderId, o.price, r);
		}
		if (o.state === 'unknown' || o.state === 'held') {
			const req = JSON.parse(o.request) as PurchaseRequest;
			const ev = await this.evidence(o, req);
			let r: PurchaseResult;
			try {
				r = await (this.deps.followClient ?? client).reconcile(req, {
					sentAt: new Date(o.sent_at ?? o.created_at),
					waitMs: 0,
					...ev,
					// written before the POST: a record carrying it is this order's, proven
					...(o.customer_ref ? { customerRef: o.customer_ref } : {}),
				});
			} catch (e) {
				const mine = ev.identicalPending === 0 ? await this.interchangeable(o, req, e) : null;
				if (!mine) return this.afterError(orderId, o.price, e, 'follow');
				r = mine;
			}
			if (!(await this.adopt(o, r)))
				return { orderId, state: 'unknown', price: o.price, error: new VtuError('unknown_outcome', ADOPT_REFUSED) };
			return this.apply(orderId, o.price, r);
		}
		// bulk SMS is final once sent (debited only then; its rows carry no status): there is no later failure to read
		if (o.state === 'settled' && o.vendor_product && o.vendor_product !== 'sms' && o.vendor_id !== null) {
			const r = await client.transactions.get(o.vendor_product as PurchaseResult['product'], o.vendor_id);
			if (r.status === 'failed') return this.apply(orderId, o.price, r);
		}
		return { orderId, state: o.state as OrderState, price: o.price };
	}

	/**
	 * What reconciling `o` must know of the shop's other orders (every instance's, from the shared table), read
	 * in one transaction: the records they own (never adopted; vendor ids count per product, so this product's
	 * only) and how many identical orders are still open (a lone matching record could be theirs).
	 */
	private async evidence(o: OrderRow, req: PurchaseRequest) {
		return this.deps.books.db.transaction().execute(async (tx) => {
			const owned = await tx
				.selectFrom('orders')
				.select(['vendor_id', 'sent_at'])
				.where('id', '<>', o.id)
				.where('vendor_product', '=', req.product)
				.where('vendor_id', 'is not', null)
				.execute();
			return {
				claimed: owned.map((x) => ({ id: Number(x.vendor_id), sentAt: x.sent_at ? Date.parse(x.sent_at) : null })),
				identicalPending: await openIdentical(tx, o),
			};
		});
	}

	/**
	 * Two phones, both answers lost, several records: the reconcile cannot pick among the candidates, but
	 * when the shop is the token's only buyer (a followClient), no other identical order is open, and the
	 * candidates are no more than the same customer's interchangeable open orders (same request, same price),
	 * each candidate is one of theirs: this order takes the lowest unowned one (the unique index settles a
	 * race), and the customer pays once per record, whichever order holds it.
	 */
	private async interchangeable(o: OrderRow, req: PurchaseRequest, e: unknown): Promise<PurchaseResult | null> {
		if (!this.deps.followClient || !(e instanceof VtuError) || e.code !== 'unknown_outcome') return null;
		const ids = (e.candidates ?? [])
			.map((c) => (c as { id?: number }).id)
			.filter((id): id is number => typeof id === 'number')
			.sort((a, b) => a - b);
		if (!ids.length) return null;
		const row = await this.deps.books.db
			.selectFrom('orders')
			.select((eb) => eb.fn.countAll<number>().as('n'))
			.where('request', '=', o.request)
			.where('customer_id', '=', o.customer_id)
			.where('price', '=', o.price)
			.where('state', 'in', ['held', 'unknown'])
			.executeTakeFirst();
		if (ids.length > Number(row?.n ?? 0)) return null;
		return this.deps.followClient.transactions.get(req.product as PurchaseResult['product'], ids[0]);
	}

	/**
	 * Links a reconciled record to `o`, unless an identical order opened meanwhile (and the record does not
	 * carry `o`'s customer_ref) or another order owns it (the unique (vendor_product, vendor_id) index
	 * decides between two instances adopting at once).
	 */
	private async adopt(o: OrderRow, r: PurchaseResult): Promise<boolean> {
		// a record carrying the reference only this order's POST carried is its own, whatever else is open
		const proven = o.customer_ref !== null && o.customer_ref !== '' && refOf(r) === o.customer_ref;
		try {
			return await this.deps.books.db.transaction().execute(async (tx) => {
				if (!proven && (await openIdentical(tx, o)) > 0) return false;
				await tx
					.updateTable('orders')
					.set({ vendor_product: r.product, vendor_id: r.id })
					.where('id', '=', o.id)
					.execute();
				return true;
			});
		} catch (e) {
			const owner = await this.deps.books.db
				.selectFrom('orders')
				.select('id')
				.where('vendor_product', '=', r.product)
				.where('vendor_id', '=', r.id)
				.where('id', '<>', o.id)
				.executeTakeFirst();
			if (owner) return false;
			throw e;
		}
	}

	/** The vendor record linked to the order, if any (written before its sale is booked). */
	private async linked(orderId: string): Promise<boolean> {
		const row = await this.deps.books.db
			.selectFrom('orders')
			.select('vendor_id')
			.where('id', '=', orderId)
			.executeTakeFirst();
		return row !== undefined && row.vendor_id !== null;
	}

	private async setState(orderId: string, state: OrderState): Promise<void> {
		await this.deps.books.db.updateTable('orders').set({ state }).where('id', '=', orderId).execute();
	}
}
