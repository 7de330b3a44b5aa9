/**
 * The storefront chaos audit: the store's database read against BOTH sandboxes' own books, never against
 * what the instances said. Payments: every paid transfer the payment sandbox recorded is credited exactly
 * once, for exactly its amount, to the customer who owns the receiving account (or parked when none does);
 * nothing else is credited. Orders: every vendor record on the merchant sandbox belongs to exactly one order;
 * every failed one is refunded to its customer exactly once; no order is refunded without a vendor failure;
 * the vendor cost booked equals what the vendor's ledger debited net of its refunds; no wallet below zero;
 * and store's own audit() (stored totals = transfers, Σ wallets = paid in − spent + refunded) is clean.
 */
import { audit } from '../store/ledger';
import { openStoreDb, type StoreDb } from '../store/db';
import type { SandboxAdmin, AdminTxn } from '../sandbox/admin-client';
import type { PaymentSandbox } from '../store/sandbox/payments';

export interface StoreAudit {
	doubleCredits: number;
	overspends: number;
	lostRefunds: number;
	/** everything else that is wrong (lost payments, false credits, foreign vendor debits, open orders…) */
	problems: string[];
	paidIn: number;
	parked: number;
	spent: number;
	refunded: number;
	wallets: number;
	vendorRecords: number;
	vendorFailed: number;
	ordersByState: Record<string, number>;
}

export interface AuditInput {
	database: string;
	pay: PaymentSandbox;
	admin: SandboxAdmin;
	vendorUser: string;
	customers: string[];
}

export async function auditRun(inp: AuditInput): Promise<StoreAudit> {
	const opened = /^postgres/.test(inp.database)
		? await openStoreDb({ databaseUrl: inp.database })
		: await openStoreDb({ sqlitePath: inp.database });
	try {
		const r = await audit(opened.db);
		const a: StoreAudit = {
			doubleCredits: 0,
			overspends: 0,
			lostRefunds: 0,
			problems: r.problems.map((p) => `store audit: ${p}`),
			paidIn: r.paidIn,
			parked: 0,
			spent: r.spent,
			refunded: r.refunded,
			wallets: r.wallets,
			vendorRecords: 0,
			vendorFailed: 0,
			ordersByState: {},
		};
		await auditPayments(opened.db, inp.pay, a);
		await auditWallets(opened.db, inp.customers, a);
		await auditOrders(opened.db, inp.admin, inp.vendorUser, a);
		return a;
	} finally {
		await opened.close();
	}
}

/** Each paid sandbox transfer credited once, for its amount, to its account's owner (or parked). */
async function auditPayments(db: StoreDb, pay: PaymentSandbox, a: StoreAudit): Promise<void> {
	const owners = new Map<string, string>();
	for (const v of await db.selectFrom('virtual_accounts').selectAll().execute())
		owners.set(`${v.provider}:${v.account_number}`, v.customer_id);
	const legs = await db
		.selectFrom('transfers')
		.select(['movement', 'credit_account', 'amount', 'reason'])
		.where('reason', 'in', ['payment', 'payment_fee'])
		.execute();
	const credited = new Map<string, { amount: number; to: Set<string>; legs: number }>();
	for (const l of legs) {
		const k = l.movement.replace(/^pay:/, '');
		const c = credited.get(k) ?? { amount: 0, to: new Set<string>(), legs: 0 };
		c.amount += Number(l.amount);
		c.to.add(l.credit_account);
		c.legs++;
		credited.set(k, c);
	}
	for (const [key, tx] of pay.txs) {
		const c = credited.get(key);
		credited.delete(key);
		if (tx.status !== 'success') {
			if (c) a.problems.push(`payment ${key}: credited ${c.amount} but the provider never confirmed it`);
			continue;
		}
		if (!c) {
			a.problems.push(`payment ${key}: paid ${tx.amount} but never credited (lost)`);
			continue;
		}
		if (c.amount > tx.amount || c.legs > 2) a.doubleCredits++;
		else if (c.amount < tx.amount) a.problems.push(`payment ${key}: paid ${tx.amount}, credited ${c.amount}`);
		const owner = owners.get(`${tx.provider}:${tx.accountNumber}`);
		const want = owner ? `customer:${owner}` : 'owner:parked';
		if (c.to.size !== 1 || !c.to.has(want)) a.problems.push(`payment ${key}: credited to ${[...c.to]}, not ${want}`);
		if (!owner) a.parked += tx.amount;
	}
	// anything left was credited for a payment the provider does not know: a forgery got through
	for (const [key, c] of credited) a.problems.push(`payment ${key}: credited ${c.amount} with no such payment`);
}

/** No wallet below zero, none holding more than it has; Σ credits per wallet = its paid-in. */
async function auditWallets(db: StoreDb, customers: string[], a: StoreAudit): Promise<void> {
	const rows = await db.selectFrom('accounts').selectAll().where('kind', '=', 'customer').execute();
	for (const w of rows) {
		const balance = Number(w.credits_posted) - Number(w.debits_posted);
		if (balance < 0 || Number(w.debits_pending) + Number(w.debits_posted) > Number(w.credits_posted)) {
			a.overspends++;
			a.problems.push(`${w.id}: balance ${balance}, held ${w.debits_pending}: overspent`);
		}
	}
	if (rows.length !== customers.length) a.problems.push(`${rows.length} wallets for ${customers.length} customers`);
}

interface OrderLedger {
	id: string;
	customer: string;
	vendorId: number | null;
	vendorProduct: string | null;
	/** the recipient the order bought for (to name the orders near a record no order owns) */
	phone: string;
	state: string;
	sentAt: string | null;
	releasedAt: string | null;
	steps: Set<string>;
	refunds: number;
	cost: number;
	vendorRefund: number;
}

async function orderLedgers(db: StoreDb, problems: string[]): Promise<Map<string, OrderLedger>> {
	const orders = await db.selectFrom('orders').selectAll().execute();
	const m = new Map<string, OrderLedger>();
	for (const o of orders)
		m.set(o.id, {
			id: o.id,
			customer: o.customer_id,
			vendorId: o.vendor_id === null ? null : Number(o.vendor_id),
			vendorProduct: o.vendor_product,
			phone: String((JSON.parse(o.request) as { phone?: string }).phone ?? ''),
			state: o.state,
			sentAt: o.sent_at,
			releasedAt: null,
			steps: new Set(),
			refunds: 0,
			cost: 0,
			vendorRefund: 0,
		});
	const ts = await db
		.selectFrom('transfers')
		.select(['id', 'reference', 'reason', 'amount', 'created_at'])
		.where('reason', 'in', ['hold', 'settle', 'release', 'refund', 'vendor_cost', 'vendor_refund'])
		.execute();
	for (const t of ts) {
		const o = m.get(t.reference);
		if (!o) {
			problems.push(`${t.id} (${t.reason}) names no order`);
			continue;
		}
		o.steps.add(t.reason);
		if (t.reason === 'release') o.releasedAt = t.created_at;
		if (t.reason === 'refund') o.refunds++;
		if (t.reason === 'vendor_cost') o.cost += Number(t.amount);
		if (t.reason === 'vendor_refund') o.vendorRefund += Number(t.amount);
	}
	return m;
}

/** Every vendor record: one order; every failed one: refunded once; vendor cost = the vendor's own ledger. */
async function auditOrders(db: StoreDb, admin: SandboxAdmin, user: string, a: StoreAudit): Promise<void> {
	const orders = await orderLedgers(db, a.problems);
	const txns = await admin.transactions({ username: user });
	a.vendorRecords = txns.length;
	const byRecord = new Map<string, OrderLedger[]>();
	for (const o of orders.values()) {
		const state = o.steps.has('refund')
			? 'refunded'
			: o.steps.has('settle')
				? 'settled'
				: o.steps.has('release')
					? 'released'
					: 'held';
		a.ordersByState[state] = (a.ordersByState[state] ?? 0) + 1;
		if (state === 'held') a.problems.push(`order ${o.id}: still held at the end (outcome never resolved)`);
		if (o.refunds > 1) a.problems.push(`order ${o.id}: refunded ${o.refunds} times`);
		if (o.vendorId !== null) {
			const k = `${o.vendorProduct}:${o.vendorId}`;
			byRecord.set(k, [...(byRecord.get(k) ?? []), o]);
		} else if (state === 'settled' || state === 'refunded')
			a.problems.push(`order ${o.id}: ${state} with no vendor record`);
	}
	for (const t of txns) {
		const near = [...orders.values()].filter((o) => o.phone === t.recipient);
		checkRecord(t, byRecord.get(`${t.product}:${t.id}`) ?? [], near, a);
	}
	for (const [k, os] of byRecord)
		if (!txns.some((t) => `${t.product}:${t.id}` === k))
			a.problems.push(`orders ${os.map((o) => o.id)} name vendor record ${k}, which does not exist`);
	await checkVendorCost(admin, user, orders, a);
}

function checkRecord(t: AdminTxn, owners: OrderLedger[], near: OrderLedger[], a: StoreAudit): void {
	const failed = t.Status === 'failed';
	if (failed) a.vendorFailed++;
	if (owners.length === 0) {
		const named = near.map((o) => `${o.id} ${o.state}/${[...o.steps]} → ${o.vendorId ?? '-'}`).join('; ');
		a.problems.push(
			`vendor record ${t.product}:${t.id} (${t.Status}, ${t.amountKobo}) belongs to no order (same recipient: ${named})`,
		);
		if (failed) a.lostRefunds++;
		return;
	}
	if (owners.length > 1) a.problems.push(`vendor record ${t.product}:${t.id} adopted by ${owners.map((o) => o.id)}`);
	const o = owners[0];
	if (failed && o.refunds !== 1) a.lostRefunds++;
	if (!failed && o.refunds > 0) a.problems.push(`order ${o.id}: refunded but its vendor record is ${t.Status}`);
	if (o.steps.has('release'))
		a.problems.push(
			`order ${o.id}: released although vendor record ${t.product}:${t.id} (${t.Status}, made ${t.created}) ` +
				`is its own (sent ${o.sentAt}, released ${o.releasedAt})`,
		);
	if (o.cost && o.cost !== t.amountKobo)
		a.problems.push(`order ${o.id}: cost ${o.cost} ≠ vendor debit ${t.amountKobo}`);
}

/** Σ vendor cost − vendor refunds on the store's ledger = Σ debits − refunds on the vendor's ledger. */
async function checkVendorCost(
	admin: SandboxAdmin,
	user: string,
	orders: Map<string, OrderLedger>,
	a: StoreAudit,
): Promise<void> {
	const ledger = await admin.ledger(user);
	const vendorNet = ledger.reduce(
		(s, e) => s + (e.kind === 'debit' ? e.amountKobo : e.kind === 'refund' ? -e.amountKobo : 0),
		0,
	);
	let storeNet = 0;
	for (const o of orders.values()) storeNet += o.cost - o.vendorRefund;
	if (storeNet !== vendorNet)
		a.problems.push(`vendor cost on the store's books ${storeNet} ≠ the vendor's net debits ${vendorNet}`);
}

export function storefrontLine(customers: number, payments: number, orders: number, x: StoreAudit): string {
	const books = x.problems.length ? `books DO NOT balance (${x.problems.length} problems)` : 'books balance';
	return (
		`storefront: ${customers} customers, ${payments} payments, ${orders} orders, ${x.doubleCredits} double credits, ` +
		`${x.overspends} overspends, ${x.lostRefunds} lost refunds, ${books}`
	);
}
