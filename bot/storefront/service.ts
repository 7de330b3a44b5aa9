/**
 * The storefront side of the bot: the store's books (store/), the Storefront that buys from a customer's
 * wallet, the payment provider that opens each customer's receiving account, and "tell once" messages.
 * One instance per bot process; the database (SQLite file or Postgres) is what several instances share.
 */
import crypto from 'node:crypto';
import type { Api } from 'grammy';
import { sql } from 'kysely';
import type { VtuClient } from '../../client/client';
import { Books } from '../../store/ledger';
import { openStoreDb, type OpenedDb } from '../../store/db';
import { Storefront, type OrderOutcome, type OrderState, type Pricing } from '../../store/orders';
import type { PriceTable, Prices } from '../../store/prices';
import { DailySummary } from './daily';
import { monnify, openCustomerAccount, paystack, type OpenedAccount, type PaymentProvider } from '../../store/payments';
import type { StorefrontConfig } from '../config';
import type { Logger } from '../logger';
import type { BotPurchaseRequest } from '../vtu';
import { t, withLocale } from '../i18n';
import { naira, productName } from '../orders';
import { sendSheet } from '../delivery';
import { menuButton } from '../flow/keyboards';
import { cheapestOf, type PricedItem } from './price-list';

export interface StoreSideOptions {
	opened: OpenedDb;
	client: VtuClient;
	provider: PaymentProvider;
	pricing: Pricing;
	lowFloatKobo: number;
	/** Telegram ids told when the vendor wallet runs low (BOT_ADMIN_IDS). */
	ownerIds: number[];
	emailDomain?: string;
	logger: Logger;
	/** Lagos hour (0-23) after which yesterday's summary goes to the owner (bot/storefront/daily.ts); default 8 */
	summaryHour?: number;
	/** Each order's customer_ref chosen and written with its hold, before the POST (VTU_CUSTOMER_REF). */
	customerRef?: boolean;
}

/** The provider of a storefront configuration (Paystack or Monnify, live or the local payment sandbox). */
export function providerOf(cfg: StorefrontConfig): PaymentProvider {
	if (cfg.provider === 'monnify') return monnify(cfg.monnify!);
	return paystack(cfg.paystack!);
}

/** The seller's pricing from the configuration: a zero percent is no percent. */
export function pricingOf(cfg: Pick<StorefrontConfig, 'markupPercent' | 'markupKobo'>): Pricing {
	return {
		markupPercent: /^0*(\.0*)?$/.test(cfg.markupPercent) ? undefined : cfg.markupPercent,
		markupKobo: cfg.markupKobo || undefined,
	};
}

export interface CustomerHistory {
	orders: {
		id: string;
		request: Record<string, unknown>;
		price: number;
		state: OrderState;
		at: string;
		delivered: { product: string; details: Record<string, unknown> } | null;
	}[];
	/** credited payments (the customer gets the whole amount: the owner bears the provider's fee) */
	payments: { reference: string; amount: number; at: string }[];
}

/** What a customer's wallet pays of a product whose amount they type (StoreSide.affordable). */
export type Affordable =
	| { kind: 'all' }
	| { kind: 'upto'; max: number; available: number }
	| { kind: 'none'; available: number; price: number };

export type Offer =
	| { ok: true; orderId: string; cost: number; price: number; at: number }
	| { ok: false; text: string };

/** How long a float refusal is told up front before the float is asked again (at a Confirm). */
const FLOAT_REFUSAL_MS = 60_000;
export class StoreSide {
	readonly books: Books;
	readonly store: Storefront;
	/** yesterday's figures to the owners, once a day (started with the follower) */
	readonly daily: DailySummary;
	private api?: Api;
	/** when the vendor float last refused an order here (cleared by the next order it covers) */
	private floatRefusedAt?: number;

	constructor(readonly o: StoreSideOptions) {
		this.books = new Books(o.opened.db);
		this.store = new Storefront({
			books: this.books,
			client: o.client,
			pricing: o.pricing,
			lowFloatKobo: o.lowFloatKobo,
			alertOwner: (text) => void this.alertOwner(text),
			customerRef: o.customerRef,
		});
		this.daily = new DailySummary(this, o.summaryHour ?? 8);
	}

	/** Opens the store database named by the configuration (SQLite file or Postgres) and its books. */
	static async open(cfg: StorefrontConfig, client: VtuClient, ownerIds: number[], logger: Logger): Promise<StoreSide> {
		const opened = await openStoreDb(cfg.databaseUrl ? { databaseUrl: cfg.databaseUrl } : { sqlitePath: cfg.dbPath });
		const side = new StoreSide({
			opened,
			client,
			provider: providerOf(cfg),
			pricing: pricingOf(cfg),
			lowFloatKobo: cfg.lowFloatKobo,
			ownerIds,
			emailDomain: cfg.emailDomain,
			logger,
			summaryHour: cfg.summaryHour,
			customerRef: cfg.customerRef,
		});
		await side.init();
		return side;
	}

	/** The owner's accounts and the table of messages told once (idempotent; safe with several instances). */
	async init(): Promise<void> {
		await this.books.init();
		await sql`create table if not exists bot_notices (key text primary key, created_at text not null)`.execute(
			this.books.db,
		);
		// what a settled order handed over (a token, PINs): /history shows it again
		await sql`create table if not exists bot_deliveries (order_id text primary key, product text not null,
      details text not null, created_at text not null)`.execute(this.books.db);
		// the flow's "Buying…" message of each order, kept before the purchase is sent: the follower edits it
		await sql`create table if not exists bot_order_messages (order_id text primary key, chat_id text not null,
      message_id text not null, created_at text not null)`.execute(this.books.db);
	}

	/** Where the order's "Buying…" message is (written before the purchase is sent; first write kept). */
	async keepMessage(orderId: string, chatId: number, messageId: number): Promise<void> {
		await sql`insert into bot_order_messages (order_id, chat_id, message_id, created_at)
      values (${orderId}, ${String(chatId)}, ${String(messageId)}, ${new Date().toISOString()})
      on conflict (order_id) do nothing`.execute(this.books.db);
	}

	/**
	 * The flow's message now shows the order's end (a receipt, a refund): a later change (a reversal) is told
	 * in a new message and leaves that one as it is.
	 */
	async messageShowsEnd(orderId: string): Promise<void> {
		await sql`delete from bot_order_messages where order_id = ${orderId}`.execute(this.books.db);
	}

	/** The order's "Buying…" message while it shows no end yet, or null (then the end is only sent). */
	async messageOf(orderId: string): Promise<{ chatId: number; messageId: number } | null> {
		const r = await sql<{ chat_id: string; message_id: string }>`select chat_id, message_id
      from bot_order_messages where order_id = ${orderId}`.execute(this.books.db);
		const row = r.rows[0];
		return row ? { chatId: Number(row.chat_id), messageId: Number(row.message_id) } : null;
	}

	/** Keeps what a settled order handed over, once (the flow and the follower may both see it). */
	async keepDelivery(orderId: string, product: string, details: Record<string, unknown>): Promise<void> {
		await sql`insert into bot_deliveries (order_id, product, details, created_at)
      values (${orderId}, ${product}, ${JSON.stringify(details)}, ${new Date().toISOString()})
      on conflict (order_id) do nothing`.execute(this.books.db);
	}

	/** The customer's latest orders (with what each handed over) and payments, newest first. */
	async historyOf(userId: number, limit = 10): Promise<CustomerHistory> {
		const id = String(userId);
		const orders = await this.books.db
			.selectFrom('orders')
			.select(['id', 'request', 'price', 'state', 'created_at'])
			.where('customer_id', '=', id)
			.orderBy('created_at', 'desc')
			.limit(limit)
			.execute();
		const kept = orders.length
			? await sql<{ order_id: string; product: string; details: string }>`select order_id, product, details
          from bot_deliveries where order_id in (${sql.join(orders.map((o) => o.id))})`.execute(this.books.db)
			: { rows: [] };
		const byId = new Map(kept.rows.map((r) => [r.order_id, r]));
		const payments = await this.books.db
			.selectFrom('payments')
			.select(['reference', 'amount', 'created_at'])
			.where('customer_id', '=', id)
			.where('status', '=', 'credited')
			.orderBy('created_at', 'desc')
			.limit(5)
			.execute();
		return {
			orders: orders.map((o) => {
				const d = byId.get(o.id);
				const request = JSON.parse(o.request) as Record<string, unknown>;
				const delivered = d ? { product: d.product, details: JSON.parse(d.details) as Record<string, unknown> } : null;
				return { id: o.id, request, price: Number(o.price), state: o.state as OrderState, at: o.created_at, delivered };
			}),
			payments: payments.map((p) => ({
				reference: p.reference,
				amount: Number(p.amount),
				at: p.created_at,
			})),
		};
	}

	/** The seller's prices (store/prices.ts): the rules in the store database, the configured markup as fallback. */
	get prices(): Prices {
		return this.store.prices;
	}

	/** The price list of this customer's tier (one read; for plan lists and /prices). */
	async priceTable(userId: number): Promise<PriceTable> {
		return this.prices.table(await this.prices.tierOf(String(userId)));
	}

	/**
	 * The Bot API the messages go out through (the bot's own, with auto-retry), and each customer's language
	 * (/language): `inLocaleOf` renders a notice sent outside an update in it.
	 */
	attach(api: Api, localeOf?: (customerId: string) => string): void {
		this.api = api;
		this.localeOf = localeOf;
	}

	private localeOf?: (customerId: string) => string;

	/** Run `fn` (which renders texts) in the customer's language. */
	inLocaleOf<T>(customerId: string, fn: () => T): T {
		return withLocale(/^\d{1,15}$/.test(customerId) ? this.localeOf?.(customerId) : undefined, fn);
	}

	get provider(): PaymentProvider {
		return this.o.provider;
	}

	priceFor(cost: number): number {
		return this.store.priceFor(cost);
	}

	/** Registers a Telegram user as a customer and opens (once) their receiving account at the provider. */
	async register(user: {
		id: number;
		first_name: string;
		last_name?: string;
		username?: string;
	}): Promise<OpenedAccount> {
		const id = String(user.id);
		const name = [user.first_name, user.last_name].filter(Boolean).join(' ').slice(0, 60) || `Customer ${id}`;
		await this.books.createCustomer(id, name);
		await this.remember(id, user.username);
		return openCustomerAccount(this.books, this.o.provider, {
			customerId: id,
			name,
			email: `tg${id}@${this.o.emailDomain ?? 'customers.invalid'}`,
		});
	}

	/** The customer's @username, for the owner's /customer lookup (their tier is kept as it is). */
	async remember(customerId: string, username: string | undefined): Promise<void> {
		const at = new Date().toISOString();
		await this.books.db
			.insertInto('customer_profiles')
			.values({ customer_id: customerId, username: username?.toLowerCase() ?? null, tier: 'regular', updated_at: at })
			.onConflict((oc) => oc.column('customer_id').doUpdateSet({ username: username?.toLowerCase() ?? null }))
			.execute();
	}

	/** The customer's wallet (an empty one for someone who never pressed /start). */
	async wallet(userId: number) {
		try {
			return await this.books.walletBalance(String(userId));
		} catch (e) {
			if ((e as { code?: string }).code !== 'not_found') throw e;
			await this.books.createCustomer(String(userId));
			return this.books.walletBalance(String(userId));
		}
	}

	/**
	 * Sends `text` to a customer the first time `key` is seen by any instance (the database's primary key
	 * decides), so a replayed payment or a re-followed order is told once. At most once: a send that
	 * fails after the key is taken is logged, not retried.
	 */
	async tellOnce(key: string, userId: string, text: string, orderId?: string): Promise<boolean> {
		if (!(await this.claim(key))) return false;
		if (!/^\d{1,15}$/.test(userId)) return true;
		// as in the till: the order's own message shows its end, and a new message notifies the customer
		// (an edit alone makes no sound: a late refund or delivery would pass unnoticed)
		if (orderId) await this.editInFlight(orderId, text);
		await this.send(Number(userId), text);
		return true;
	}

	/**
	 * The order's in-flight message becomes `text` (with the menu button, as the flow's outcome has it);
	 * false when there is none or the edit failed (deleted, too old; logged).
	 */
	private async editInFlight(orderId: string, text: string): Promise<boolean> {
		const at = await this.messageOf(orderId);
		if (!at || !this.api) return false;
		try {
			await this.api.editMessageText(at.chatId, at.messageId, text, { reply_markup: menuButton() });
			return true;
		} catch (e) {
			this.o.logger.info('in-flight order message not edited: told in a new one', { order: orderId, err: e });
			return false;
		}
	}

	/** True the first time `key` is claimed (by any instance): what was told in the chat is claimed too. */
	async claim(key: string): Promise<boolean> {
		const r = await sql`insert into bot_notices (key, created_at) values (${key}, ${new Date().toISOString()})
      on conflict (key) do nothing`.execute(this.books.db);
		return Number(r.numAffectedRows ?? 0) > 0;
	}

	/** Whether `key` was claimed (read only). */
	async told(key: string): Promise<boolean> {
		const r = await sql<{ key: string }>`select key from bot_notices where key = ${key}`.execute(this.books.db);
		return r.rows.length > 0;
	}

	/** The printable PIN sheet of an exam-PIN or recharge-card order settled away from its flow (the follower). */
	async sendSheetTo(
		customerId: string,
		orderId: string,
		r: { product: string; ident: string | null; details?: Record<string, unknown> },
	): Promise<void> {
		if (!this.api || !/^\d{1,15}$/.test(customerId)) return;
		const o = { state: 'successful', description: productName(r.product), id: orderId, ident: r.ident };
		await sendSheet(
			this.api,
			Number(customerId),
			{ ...o, product: r.product, details: r.details ?? {} },
			this.o.logger,
		);
	}

	async send(chatId: number, text: string): Promise<void> {
		try {
			await this.api?.sendMessage(chatId, text);
		} catch (e) {
			this.o.logger.warn('storefront message not delivered', { user: chatId, err: e });
		}
	}

	private async alertOwner(text: string): Promise<void> {
		this.o.logger.warn('vendor wallet low: owner alerted', { owners: this.o.ownerIds.length });
		await this.tellOwners(() => t('sf-owner-low-float', { detail: text }));
	}

	get ownerIds(): number[] {
		return this.o.ownerIds;
	}

	/** Tells each owner `text`, rendered in that owner's language (not the update's: a customer's). */
	async tellOwners(text: () => string): Promise<void> {
		for (const id of this.o.ownerIds) await this.send(id, this.inLocaleOf(String(id), text));
	}

	/**
	 * The vendor refused the bot's token (an `auth` error): the owner is told, once an hour across instances,
	 * since every order fails until the token is fixed.
	 */
	async noteVendorError(e: unknown): Promise<void> {
		if ((e as { code?: unknown } | null)?.code !== 'auth') return;
		const hour = new Date().toISOString().slice(0, 13);
		if (!(await this.claim(`alert:vendor-auth:${hour}`))) return;
		this.o.logger.warn('the vendor refused the token: owner alerted', { owners: this.o.ownerIds.length });
		await this.tellOwners(() => t('owner-alert-token'));
	}

	/**
	 * What refuses every order of this customer, said as a flow starts (before the details): an empty wallet
	 * (one database read), a wallet short of the cheapest order of `product` at this customer's price (the
	 * cached catalogue and two reads; for airtime and electricity, the product's minimum), or the vendor float
	 * refused an order in the last FLOAT_REFUSAL_MS at this instance (the last known state: no vendor call per
	 * flow start). The full checks run at Confirm.
	 */
	async earlyRefusal(
		userId: number,
		product?: string,
	): Promise<{ ok: false; text: string; retry?: { place: 'fund'; label: string } } | null> {
		if (this.floatRefusedAt !== undefined && Date.now() - this.floatRefusedAt < FLOAT_REFUSAL_MS)
			return { ok: false, text: t('sf-float-refused') };
		const w = await this.wallet(userId);
		const fund = { place: 'fund' as const, label: t('btn-fund') };
		if (w.available <= 0) return { ok: false, text: t('sf-wallet-empty'), retry: fund };
		const cheapest = product ? await this.cheapest(userId, product) : null;
		if (cheapest === null || w.available >= cheapest) return null;
		const vars = { available: naira(w.available), price: naira(cheapest), product: productName(product!) };
		return { ok: false, text: t('sf-wallet-below-cheapest', vars), retry: fund };
	}

	/**
	 * This customer's price of the cheapest order of a product (price-list.ts cheapestOf: a listed item, the
	 * minimum of a typed amount, one SMS page); null when the catalogue cannot be read (the checks at Confirm
	 * still run).
	 */
	private async cheapest(userId: number, product: string): Promise<number | null> {
		try {
			const c = await this.o.client.catalog.get();
			const table = await this.priceTable(userId);
			return cheapestOf(c, product, (i) => table.price(i.key, i.cost).price);
		} catch (e) {
			this.o.logger.warn('cheapest price not known at flow start', { product, err: e });
			return null;
		}
	}

	/**
	 * How much of a product whose amount the customer types (airtime, electricity) their wallet pays at their
	 * price: `item` is the order of a face value (kobo) at the vendor's cost, priced by the seller's rules like
	 * any quote. Whole naira from `min` to `max`: 'all' when the wallet covers `max`, 'none' (with the price of
	 * `min`) when it covers not even `min`.
	 */
	async affordable(
		userId: number,
		min: number,
		max: number,
		item: (faceKobo: number) => PricedItem | null,
	): Promise<Affordable> {
		const [w, table] = await Promise.all([this.wallet(userId), this.priceTable(userId)]);
		const price = (face: number) => {
			const i = item(face);
			return i ? table.price(i.key, i.cost).price : 0;
		};
		if (price(max) <= w.available) return { kind: 'all' };
		if (price(min) > w.available) return { kind: 'none', available: w.available, price: price(min) };
		// the price rises with the face value: the largest whole naira the wallet covers
		let lo = Math.ceil(min / 100);
		let hi = Math.floor(max / 100);
		while (lo < hi) {
			const mid = Math.ceil((lo + hi) / 2);
			if (price(mid * 100) <= w.available) lo = mid;
			else hi = mid - 1;
		}
		return { kind: 'upto', max: Math.max(min, lo * 100), available: w.available };
	}

	/** Everything checked before the Confirm button: the customer exists, the price, the float, the wallet. */
	async offer(userId: number, req: BotPurchaseRequest): Promise<Offer> {
		const customer = String(userId);
		await this.books.createCustomer(customer);
		const cost = (await this.o.client.quote(req)).amount.kobo;
		const price = await this.store.priceOf(customer, req, cost);
		try {
			await this.store.guardFloat(cost); // insufficient_balance: the shop cannot fill it; nothing held
			this.floatRefusedAt = undefined;
		} catch (e) {
			if ((e as { code?: unknown }).code === 'insufficient_balance') this.floatRefusedAt = Date.now();
			throw e;
		}
		const w = await this.books.walletBalance(customer);
		if (w.available < price)
			return { ok: false, text: t('sf-wallet-short', { price: naira(price), available: naira(w.available) }) };
		const orderId = `tg${userId}-${crypto.randomBytes(6).toString('hex')}`;
		return { ok: true, orderId, cost, price, at: Date.now() };
	}

	/** Places the order (hold → buy → settle / release / refund, or held while unknown). */
	place(userId: number, orderId: string, req: BotPurchaseRequest, price?: number): Promise<OrderOutcome> {
		return this.store.placeOrder(String(userId), orderId, req, { price });
	}

	async close(): Promise<void> {
		await this.daily.stop();
		await this.o.opened.close();
	}
}
