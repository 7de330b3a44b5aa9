/**
 * The storefront's books: an append-only double-entry ledger in integer kobo, modelled on TigerBeetle's
 * transfers. Every transfer debits one account and credits another by the same amount, so the books balance
 * by construction; a movement (a payment, an order's hold, a refund…) is one or more transfers written in one
 * database transaction. A hold is a `pending` transfer; it is later resolved exactly once by a
 * `post_pending` (settle) or a `void_pending` (release) transfer — the UNIQUE `pending_id` makes "once" a
 * database rule. Account rows carry TigerBeetle's four running totals, updated in the same transaction as the
 * transfers and re-derivable from them at any time (`audit`). A customer's wallet may never have debits
 * (pending + posted) above its posted credits: the UPDATE is conditional on it and a CHECK backs it up, so two
 * orders at the same moment cannot overspend, on SQLite or Postgres.
 */
import { sql, type Transaction } from 'kysely';
import { VtuError, VtuInsufficientBalanceError, VtuInvalidInputError } from '../client/errors';
import type { StoreDb, StoreTables, TransferRow } from './db';

/** The owner's accounts. Asset/expense accounts are debit-normal, the others credit-normal. */
export const OWNER = {
	/** money a payment provider holds for the owner (asset), one per provider: `owner:provider:<name>` */
	provider: (name: string) => `owner:provider:${name}`,
	/** provider fees on incoming payments (expense) */
	fees: 'owner:fees',
	/** what customers paid for orders (revenue) */
	sales: 'owner:sales',
	/** what the vendor charged for orders (expense) */
	vendorCost: 'owner:vendor_cost',
	/** the merchant's vendor wallet (asset; credited as the vendor spends it) */
	vendorFloat: 'owner:vendor_float',
	/** refunds to customers after a settled order failed (contra-revenue) */
	refunds: 'owner:refunds',
	/** payments that matched no customer, held for the owner to assign (liability) */
	parked: 'owner:parked',
	/** the owner's manual credits and debits (equity) */
	adjustments: 'owner:adjustments',
} as const;

const FIXED_OWNER_ACCOUNTS = [
	OWNER.fees,
	OWNER.sales,
	OWNER.vendorCost,
	OWNER.vendorFloat,
	OWNER.refunds,
	OWNER.parked,
	OWNER.adjustments,
];

export const walletId = (customerId: string) => `customer:${customerId}`;

export type TransferKind = 'posted' | 'pending' | 'post_pending' | 'void_pending';

export interface Leg {
	id: string;
	debit: string;
	credit: string;
	amount: number;
	kind?: TransferKind;
	pendingId?: string;
	reason: string;
	note?: string;
}

export interface Movement {
	/** the movement's key; its first leg's id. Writing the same movement twice writes nothing the second time. */
	movement: string;
	reference: string;
	legs: Leg[];
}

export interface WalletBalance {
	/** posted credits − posted debits */
	balance: number;
	/** pending debits (orders held, not yet settled or released) */
	held: number;
	/** balance − held: what the customer can spend now */
	available: number;
}

type Tx = Transaction<StoreTables>;
type Deltas = { debits_pending: number; debits_posted: number; credits_pending: number; credits_posted: number };

const now = () => new Date().toISOString();

export function assertKobo(amount: unknown, field = 'amount'): number {
	if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) {
		throw new VtuInvalidInputError(`${field} must be a whole number of kobo above 0 (e.g. 25000 for ₦250).`, { field });
	}
	return amount;
}

function addDelta(map: Map<string, Deltas>, account: string, key: keyof Deltas, by: number) {
	let d = map.get(account);
	if (!d) map.set(account, (d = { debits_pending: 0, debits_posted: 0, credits_pending: 0, credits_posted: 0 }));
	d[key] += by;
}

/** How each leg moves the four running totals of its two accounts (TigerBeetle's rules). */
function deltasOf(legs: Leg[]): Map<string, Deltas> {
	const m = new Map<string, Deltas>();
	for (const l of legs) {
		const kind = l.kind ?? 'posted';
		if (kind === 'posted' || kind === 'post_pending') {
			addDelta(m, l.debit, 'debits_posted', l.amount);
			addDelta(m, l.credit, 'credits_posted', l.amount);
		}
		if (kind === 'pending') {
			addDelta(m, l.debit, 'debits_pending', l.amount);
			addDelta(m, l.credit, 'credits_pending', l.amount);
		}
		if (kind === 'post_pending' || kind === 'void_pending') {
			addDelta(m, l.debit, 'debits_pending', -l.amount);
			addDelta(m, l.credit, 'credits_pending', -l.amount);
		}
	}
	return m;
}

export class Ledger {
	constructor(readonly db: StoreDb) {}

	/** Creates the owner's fixed accounts and one settlement account per provider (idempotent). */
	async init(providers: string[] = ['paystack', 'monnify']): Promise<void> {
		const ids = [...FIXED_OWNER_ACCOUNTS, ...providers.map(OWNER.provider)];
		for (const id of ids) await this.ensureAccount(id, 'owner', null, 0);
	}

	private async ensureAccount(
		id: string,
		kind: string,
		customerId: string | null,
		limit: number,
		db: StoreDb | Tx = this.db,
	) {
		await db
			.insertInto('accounts')
			.values({
				id,
				kind,
				customer_id: customerId,
				limit_debits: limit,
				debits_pending: 0,
				debits_posted: 0,
				credits_pending: 0,
				credits_posted: 0,
				created_at: now(),
			})
			.onConflict((oc) => oc.column('id').doNothing())
			.execute();
	}

	/** A customer and their wallet (idempotent: the same id twice is one customer). */
	async createCustomer(id: string, name = ''): Promise<void> {
		if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(id)) {
			throw new VtuInvalidInputError(
				'customer id must be 1-64 letters, digits or _ . : - (e.g. the Telegram user id).',
				{ field: 'customerId' },
			);
		}
		await this.db.transaction().execute(async (tx) => {
			await tx
				.insertInto('customers')
				.values({ id, name, created_at: now() })
				.onConflict((oc) => oc.column('id').doNothing())
				.execute();
			await this.ensureAccount(walletId(id), 'customer', id, 1, tx);
		});
	}

	/**
	 * Writes a movement atomically. Returns false (and writes nothing) when its first leg already exists or
	 * when a leg resolves a hold that was already resolved. Throws `insufficient_balance` when a limited
	 * account (a wallet) would go below zero available; nothing is written then either.
	 */
	async write(mv: Movement, tx?: Tx): Promise<boolean> {
		if (mv.legs.length === 0) throw new VtuInvalidInputError('a movement needs at least one transfer');
		for (const l of mv.legs) assertKobo(l.amount);
		const run = async (t: Tx) => {
			const at = now();
			for (const l of mv.legs) {
				const kind = l.kind ?? 'posted';
				const res = await t
					.insertInto('transfers')
					.values({
						id: l.id,
						debit_account: l.debit,
						credit_account: l.credit,
						amount: l.amount,
						kind,
						pending_id: l.pendingId ?? null,
						movement: mv.movement,
						reason: l.reason,
						reference: mv.reference,
						note: l.note ?? null,
						created_at: at,
					})
					// no target: a clash on the transfer id OR on pending_id (a hold resolved twice) both mean "already done"
					.onConflict((oc) => oc.doNothing())
					.executeTakeFirst();
				if (Number(res.numInsertedOrUpdatedRows ?? 0) !== 1) throw new AlreadyWritten();
			}
			// account updates in id order: two movements touching the same accounts never deadlock on Postgres
			const deltas = [...deltasOf(mv.legs).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
			for (const [account, d] of deltas) await applyDeltas(t, account, d);
		};
		try {
			if (tx) await run(tx);
			else await retryOnDeadlock(() => this.db.transaction().execute(run));
			return true;
		} catch (e) {
			if (e instanceof AlreadyWritten) {
				if (tx) throw e;
				return false;
			}
			throw e;
		}
	}

	async transfer(id: string): Promise<TransferRow | undefined> {
		return (await this.db.selectFrom('transfers').selectAll().where('id', '=', id).executeTakeFirst()) as
			| TransferRow
			| undefined;
	}

	async walletBalance(customerId: string): Promise<WalletBalance> {
		// the columns by name, not `*`: on Postgres only a text without `*` is prepared once (db.ts)
		const a = await this.db
			.selectFrom('accounts')
			.select(['credits_posted', 'debits_posted', 'debits_pending'])
			.where('id', '=', walletId(customerId))
			.executeTakeFirst();
		if (!a) throw new VtuError('not_found', `no customer ${customerId}`);
		const balance = a.credits_posted - a.debits_posted;
		return { balance, held: a.debits_pending, available: balance - a.debits_pending };
	}

	/** The owner credits (amount > 0) or debits (amount < 0) a customer by hand; a reason is required. */
	async adjust(customerId: string, amount: number, reason: string, reference: string): Promise<boolean> {
		if (typeof reason !== 'string' || reason.trim().length < 3) {
			throw new VtuInvalidInputError(
				'a manual credit or debit needs a reason (at least 3 characters), e.g. "refund for failed DSTV order".',
				{ field: 'reason' },
			);
		}
		if (!reference)
			throw new VtuInvalidInputError('a manual credit or debit needs a reference (unique per adjustment).', {
				field: 'reference',
			});
		const credit = amount > 0;
		const kobo = assertKobo(Math.abs(amount));
		const w = walletId(customerId);
		const id = `adjust:${reference}`;
		return this.write({
			movement: id,
			reference,
			legs: [
				{
					id,
					debit: credit ? OWNER.adjustments : w,
					credit: credit ? w : OWNER.adjustments,
					amount: kobo,
					reason: credit ? 'manual_credit' : 'manual_debit',
					note: reason.trim(),
				},
			],
		});
	}
}

/**
 * Postgres may pick a transaction as a deadlock victim (40P01) or fail it on serialization (40001) when
 * several instances move the same accounts at once; the whole transaction was rolled back, so running it
 * again is safe and is what the error asks for. Anything else, or a fourth failure, is thrown.
 */
export async function retryOnDeadlock<T>(run: () => Promise<T>, attempts = 4): Promise<T> {
	for (let i = 1; ; i++) {
		try {
			return await run();
		} catch (e) {
			const code = (e as { code?: unknown }).code;
			if (i >= attempts || (code !== '40P01' && code !== '40001')) throw e;
		}
	}
}

class AlreadyWritten extends Error {}

/** Thrown inside a transaction to roll it back when a movement's first leg already exists. */
export function isAlreadyWritten(e: unknown): boolean {
	return e instanceof AlreadyWritten;
}

async function applyDeltas(t: Tx, account: string, d: Deltas): Promise<void> {
	const res = await t
		.updateTable('accounts')
		.set({
			debits_pending: sql`debits_pending + ${d.debits_pending}`,
			debits_posted: sql`debits_posted + ${d.debits_posted}`,
			credits_pending: sql`credits_pending + ${d.credits_pending}`,
			credits_posted: sql`credits_posted + ${d.credits_posted}`,
		})
		.where('id', '=', account)
		// the no-overspend rule, evaluated by the database on the row it locks (Postgres re-checks it after a
		// concurrent update commits; SQLite runs writers one at a time)
		.where(
			sql<boolean>`(limit_debits = 0
				or debits_pending + ${d.debits_pending} + debits_posted + ${d.debits_posted}
					<= credits_posted + ${d.credits_posted})`,
		)
		.executeTakeFirst();
	if (Number(res.numUpdatedRows) === 1) return;
	const exists = await t.selectFrom('accounts').select('id').where('id', '=', account).executeTakeFirst();
	if (!exists) throw new VtuError('not_found', `no ledger account ${account}`);
	throw new VtuInsufficientBalanceError('The wallet balance does not cover this order.');
}

export interface PaymentIn {
	provider: string;
	/** the provider's reference for this payment: a payment credits at most once per (provider, reference) */
	reference: string;
	/** null: the transfer matched no customer; the money is parked for the owner */
	customerId: string | null;
	/** what the payer paid, in kobo */
	amount: number;
	/** the provider's fee on it, in kobo (the owner bears it: the customer is credited `amount`) */
	fee: number;
	accountNumber?: string | null;
	paidAt?: string | null;
}

export type PaymentOutcome = 'credited' | 'parked' | 'duplicate';

/** Order-side movements and payments, on top of the ledger. */
export class Books extends Ledger {
	/**
	 * Records a confirmed payment. The payments row's primary key (provider, reference) is written first in
	 * the same transaction: a replay, or the same event at another instance at the same moment, writes nothing.
	 */
	async recordPayment(p: PaymentIn): Promise<PaymentOutcome> {
		assertKobo(p.amount);
		if (!Number.isSafeInteger(p.fee) || p.fee < 0 || p.fee > p.amount)
			throw new VtuInvalidInputError('fee must be whole kobo between 0 and the amount.', { field: 'fee' });
		const status = p.customerId ? 'credited' : 'parked';
		const to = p.customerId ? walletId(p.customerId) : OWNER.parked;
		const mv = `pay:${p.provider}:${p.reference}`;
		const legs: Leg[] = [];
		if (p.amount - p.fee > 0)
			legs.push({
				id: `${mv}:net`,
				debit: OWNER.provider(p.provider),
				credit: to,
				amount: p.amount - p.fee,
				reason: 'payment',
			});
		if (p.fee > 0) legs.push({ id: `${mv}:fee`, debit: OWNER.fees, credit: to, amount: p.fee, reason: 'payment_fee' });
		try {
			await retryOnDeadlock(() =>
				this.db.transaction().execute(async (tx) => {
					const ins = await tx
						.insertInto('payments')
						.values({
							provider: p.provider,
							reference: p.reference,
							customer_id: p.customerId,
							amount: p.amount,
							fee: p.fee,
							status,
							account_number: p.accountNumber ?? null,
							paid_at: p.paidAt ?? null,
							created_at: new Date().toISOString(),
						})
						.onConflict((oc) => oc.columns(['provider', 'reference']).doNothing())
						.executeTakeFirst();
					if (Number(ins.numInsertedOrUpdatedRows ?? 0) !== 1) throw new AlreadyWritten();
					await this.write({ movement: mv, reference: p.reference, legs }, tx);
				}),
			);
		} catch (e) {
			if (isAlreadyWritten(e)) return 'duplicate';
			throw e;
		}
		return status;
	}

	/** Moves a parked payment to the customer it belongs to (once). */
	async assignParked(provider: string, reference: string, customerId: string): Promise<boolean> {
		const pay = await this.db
			.selectFrom('payments')
			.selectAll()
			.where('provider', '=', provider)
			.where('reference', '=', reference)
			.executeTakeFirst();
		if (!pay || pay.status !== 'parked') throw new VtuError('not_found', `no parked payment ${provider} ${reference}`);
		const id = `unpark:${provider}:${reference}`;
		return this.write({
			movement: id,
			reference,
			legs: [{ id, debit: OWNER.parked, credit: walletId(customerId), amount: pay.amount, reason: 'unpark' }],
		});
	}

	/**
	 * Holds `amount` of the customer's wallet for an order. Throws `insufficient_balance` (nothing held). Inside
	 * `tx` (written with the order's row), a hold already written throws (see isAlreadyWritten) instead.
	 */
	async hold(customerId: string, orderId: string, amount: number, tx?: Tx): Promise<boolean> {
		const id = `hold:${orderId}`;
		return this.write(
			{
				movement: id,
				reference: orderId,
				legs: [
					{
						id,
						debit: walletId(customerId),
						credit: OWNER.sales,
						amount: assertKobo(amount),
						kind: 'pending',
						reason: 'hold',
					},
				],
			},
			tx,
		);
	}

	/** The order succeeded: the hold becomes a sale; `vendorCost` (kobo) is what the vendor charged. */
	async settle(orderId: string, vendorCost?: number): Promise<boolean> {
		const legs: Leg[] = [closeHold(await this.mustHold(orderId), 'settle', orderId)];
		if (vendorCost)
			legs.push({
				id: `cost:${orderId}`,
				debit: OWNER.vendorCost,
				credit: OWNER.vendorFloat,
				amount: assertKobo(vendorCost, 'vendorCost'),
				reason: 'vendor_cost',
			});
		return this.write({ movement: `settle:${orderId}`, reference: orderId, legs });
	}

	/** Proven not charged: the hold is released in full. */
	async release(orderId: string): Promise<boolean> {
		const legs = [closeHold(await this.mustHold(orderId), 'release', orderId)];
		return this.write({ movement: `release:${orderId}`, reference: orderId, legs });
	}

	/**
	 * A settled order failed or was refunded later: the customer gets the sale back, exactly once
	 * (`refund:<order>` is unique), and the vendor's refund (if it returned the cost) is booked beside it.
	 */
	async refund(orderId: string, vendorRefund?: number): Promise<boolean> {
		const settled = await this.transfer(`settle:${orderId}`);
		if (!settled) throw new VtuError('not_found', `order ${orderId} was not settled: release its hold instead`);
		const legs: Leg[] = [
			{
				id: `refund:${orderId}`,
				debit: OWNER.refunds,
				credit: settled.debit_account,
				amount: settled.amount,
				reason: 'refund',
			},
		];
		if (vendorRefund)
			legs.push({
				id: `vendor-refund:${orderId}`,
				debit: OWNER.vendorFloat,
				credit: OWNER.vendorCost,
				amount: assertKobo(vendorRefund, 'vendorRefund'),
				reason: 'vendor_refund',
			});
		return this.write({ movement: `refund:${orderId}`, reference: orderId, legs });
	}

	/** The order's state as the ledger knows it. */
	async orderState(orderId: string): Promise<'none' | 'held' | 'settled' | 'released' | 'refunded'> {
		const rows = await this.db
			.selectFrom('transfers')
			.select('id')
			.where('reference', '=', orderId)
			.where('id', 'in', [`hold:${orderId}`, `settle:${orderId}`, `release:${orderId}`, `refund:${orderId}`])
			.execute();
		const has = new Set(rows.map((r) => r.id.split(':')[0]));
		if (has.has('refund')) return 'refunded';
		if (has.has('settle')) return 'settled';
		if (has.has('release')) return 'released';
		return has.has('hold') ? 'held' : 'none';
	}

	private async mustHold(orderId: string): Promise<TransferRow> {
		const hold = await this.transfer(`hold:${orderId}`);
		if (!hold) throw new VtuError('not_found', `order ${orderId} has no hold`);
		return hold;
	}
}

/** The leg that closes an order's hold in full: settled (posted as a sale) or released (voided). */
function closeHold(hold: TransferRow, reason: 'settle' | 'release', orderId: string): Leg {
	const kind = reason === 'settle' ? 'post_pending' : 'void_pending';
	const { debit_account: debit, credit_account: credit, amount } = hold;
	return { id: `${reason}:${orderId}`, debit, credit, amount, kind, pendingId: hold.id, reason };
}

export interface AuditReport {
	/** problems found; empty when the books are right */
	problems: string[];
	/** Σ customer wallets' posted balances */
	wallets: number;
	paidIn: number;
	spent: number;
	refunded: number;
	manual: number;
}

/**
 * Re-derives every account's totals from the transfers and compares them with the stored ones, checks
 * that no wallet is below zero, and checks the storefront identity:
 * Σ wallets = paid in − spent + refunded (+ manual credits − manual debits).
 */
export async function audit(db: StoreDb): Promise<AuditReport> {
	const problems: string[] = [];
	const accounts = await db.selectFrom('accounts').selectAll().execute();
	const transfers = await db
		.selectFrom('transfers')
		.select(['id', 'debit_account', 'credit_account', 'amount', 'kind', 'pending_id', 'reason'])
		.execute();
	const legs = transfers.map((t) => ({
		id: t.id,
		debit: t.debit_account,
		credit: t.credit_account,
		amount: Number(t.amount),
		kind: t.kind as TransferKind,
		reason: t.reason,
	}));
	const derived = deltasOf(legs);
	const zero: Deltas = { debits_pending: 0, debits_posted: 0, credits_pending: 0, credits_posted: 0 };
	let wallets = 0;
	let net = 0;
	for (const a of accounts) {
		const d = derived.get(a.id) ?? zero;
		for (const k of Object.keys(zero) as (keyof Deltas)[]) {
			if (Number(a[k]) !== d[k]) problems.push(`${a.id}: stored ${k} ${a[k]} but transfers give ${d[k]}`);
		}
		net += d.credits_posted - d.debits_posted;
		if (a.kind === 'customer') {
			wallets += d.credits_posted - d.debits_posted;
			if (d.debits_posted + d.debits_pending > d.credits_posted) problems.push(`${a.id}: overspent`);
		}
	}
	if (net !== 0) problems.push(`posted credits and debits differ by ${net}`);
	const toWallet = (t: (typeof legs)[number]) => t.credit.startsWith('customer:');
	const sum = (f: (t: (typeof legs)[number]) => boolean) => legs.filter(f).reduce((s, t) => s + t.amount, 0);
	const paidIn = sum(
		(t) => (t.reason === 'payment' || t.reason === 'payment_fee' || t.reason === 'unpark') && toWallet(t),
	);
	const spent = sum((t) => t.reason === 'settle');
	const refunded = sum((t) => t.reason === 'refund');
	const manual = sum((t) => t.reason === 'manual_credit') - sum((t) => t.reason === 'manual_debit');
	if (wallets !== paidIn - spent + refunded + manual) {
		const sources = `paid in ${paidIn} − spent ${spent} + refunded ${refunded} + manual ${manual}`;
		problems.push(`wallets ${wallets} ≠ ${sources}`);
	}
	const resolved = new Map<string, number>();
	for (const t of transfers) if (t.pending_id) resolved.set(t.pending_id, (resolved.get(t.pending_id) ?? 0) + 1);
	for (const [id, n] of resolved) if (n > 1) problems.push(`hold ${id} resolved ${n} times`);
	return { problems, wallets, paidIn, spent, refunded, manual };
}
