/**
 * The owner's report for a period, read from the ledger's transfers (never from totals kept elsewhere):
 * orders settled (the price the customer paid, what the vendor charged for it, the profit), refunds (the
 * sale given back, and the vendor's own refund of its cost), payments in (and the provider fees the owner
 * bears), parked payments assigned, and the owner's manual credits and debits. A day is a day in Lagos
 * (WAT, UTC+1 all year).
 */
import { VtuInvalidInputError } from '../client/errors';
import type { StoreDb } from './db';

const WAT_MS = 60 * 60 * 1000;

export type ReportKind = 'order' | 'refund' | 'payment' | 'assigned' | 'credit' | 'debit';

export interface ReportRow {
	/** when the ledger wrote it (ISO, UTC) */
	at: string;
	kind: ReportKind;
	/** the order id, the provider's payment reference, or the adjustment's reference */
	reference: string;
	/** the customer's id ('' for a payment parked for the owner) */
	customer: string;
	/** kobo: the order's price, a refund (negative), a payment, an adjustment (signed) */
	amount: number;
	/** kobo the vendor charged (negative: the vendor's refund); orders and refunds only */
	vendorCost: number;
	/** kobo the payment provider kept */
	fee: number;
	/** orders and refunds: amount − vendorCost */
	profit: number;
	note: string;
}

export interface Report {
	from: string;
	to: string;
	orders: number;
	/** what customers paid for orders settled in the period */
	sales: number;
	/** what the vendor charged for them */
	vendorCost: number;
	refunds: number;
	/** the vendor's refunds of its cost, for orders it failed */
	vendorRefunds: number;
	/** sales − vendorCost − refunds + vendorRefunds */
	profit: number;
	payments: number;
	/** what payers paid in (customers' wallets and parked), fees included */
	paidIn: number;
	fees: number;
	/** profit − fees */
	net: number;
	/** manual credits − manual debits */
	manual: number;
	rows: ReportRow[];
}

const REASONS = [
	'settle',
	'vendor_cost',
	'refund',
	'vendor_refund',
	'payment',
	'payment_fee',
	'unpark',
	'manual_credit',
	'manual_debit',
];

/** "2026-11-24" → that day in Lagos as [from, to) in UTC ISO. */
export function dayBounds(day: string): { from: string; to: string } {
	const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day.trim());
	const start = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - WAT_MS : NaN;
	if (!m || Number.isNaN(start) || new Date(start + WAT_MS).toISOString().slice(0, 10) !== day.trim())
		throw new VtuInvalidInputError(`"${day}" is not a date: type it as YYYY-MM-DD, e.g. 2026-11-24.`, {
			field: 'date',
			details: { day },
		});
	return { from: new Date(start).toISOString(), to: new Date(start + 24 * WAT_MS).toISOString() };
}

/** The Lagos date of an instant ("2026-11-24"). */
export function lagosDay(at: Date): string {
	return new Date(at.getTime() + WAT_MS).toISOString().slice(0, 10);
}

/** The Lagos date `days` after `day` (negative: before). */
export function addDays(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + days * 24 * WAT_MS).toISOString().slice(0, 10);
}

const customerOf = (account: string) => (account.startsWith('customer:') ? account.slice('customer:'.length) : '');

type Leg = {
	movement: string;
	reason: string;
	amount: number;
	debit_account: string;
	credit_account: string;
	reference: string;
	note: string | null;
	created_at: string;
};

/** One movement's legs → one report row. */
function rowOf(legs: Leg[]): ReportRow | null {
	const by = (reason: string) => legs.find((l) => l.reason === reason);
	const first = legs[0];
	const base = { at: first.created_at, reference: first.reference, vendorCost: 0, fee: 0, profit: 0, note: '' };
	const manual = (kind: 'credit' | 'debit', customer: string, amount: number, note: string | null): ReportRow => ({
		...base,
		kind,
		customer,
		amount,
		note: note ?? '',
	});
	const settle = by('settle');
	if (settle) {
		const cost = by('vendor_cost')?.amount ?? 0;
		const customer = customerOf(settle.debit_account);
		return { ...base, kind: 'order', customer, amount: settle.amount, vendorCost: cost, profit: settle.amount - cost };
	}
	const refund = by('refund');
	if (refund) {
		const back = by('vendor_refund')?.amount ?? 0;
		const customer = customerOf(refund.credit_account);
		return {
			...base,
			kind: 'refund',
			customer,
			amount: -refund.amount,
			vendorCost: -back,
			profit: back - refund.amount,
		};
	}
	const net = by('payment');
	const fee = by('payment_fee');
	if (net || fee) {
		const to = (net ?? fee)!.credit_account;
		const amount = (net?.amount ?? 0) + (fee?.amount ?? 0);
		const note = to.startsWith('customer:') ? '' : 'parked';
		return { ...base, kind: 'payment', customer: customerOf(to), amount, fee: fee?.amount ?? 0, note };
	}
	const unpark = by('unpark');
	if (unpark) return { ...base, kind: 'assigned', customer: customerOf(unpark.credit_account), amount: unpark.amount };
	// an owner's manual credit adds to the customer's balance, a manual debit takes from it
	const credit = by('manual_credit');
	if (credit) return manual('credit', customerOf(credit.credit_account), credit.amount, credit.note);
	const debit = by('manual_debit');
	if (debit) return manual('debit', customerOf(debit.debit_account), -debit.amount, debit.note);
	return null;
}

/** The report for [from, to) (UTC ISO instants), from the ledger. */
export async function buildReport(db: StoreDb, from: string, to: string): Promise<Report> {
	const legs = (await db
		.selectFrom('transfers')
		.select(['movement', 'reason', 'amount', 'debit_account', 'credit_account', 'reference', 'note', 'created_at'])
		.where('created_at', '>=', from)
		.where('created_at', '<', to)
		.where('reason', 'in', REASONS)
		.orderBy('seq')
		.execute()) as Leg[];
	const movements = new Map<string, Leg[]>();
	for (const l of legs) {
		const list = movements.get(l.movement) ?? [];
		list.push({ ...l, amount: Number(l.amount) });
		movements.set(l.movement, list);
	}
	const rows = [...movements.values()].map(rowOf).filter((r): r is ReportRow => r !== null);
	return { from, to, ...totalsOf(rows), rows };
}

function totalsOf(rows: ReportRow[]): Omit<Report, 'from' | 'to' | 'rows'> {
	const sum = (kind: ReportKind, f: (r: ReportRow) => number) =>
		rows.filter((r) => r.kind === kind).reduce((s, r) => s + f(r), 0);
	const orders = rows.filter((r) => r.kind === 'order').length;
	const sales = sum('order', (r) => r.amount);
	const vendorCost = sum('order', (r) => r.vendorCost);
	const refunds = -sum('refund', (r) => r.amount);
	const vendorRefunds = -sum('refund', (r) => r.vendorCost);
	const profit = sales - vendorCost - refunds + vendorRefunds;
	const fees = sum('payment', (r) => r.fee);
	const manual = sum('credit', (r) => r.amount) + sum('debit', (r) => r.amount);
	return {
		orders,
		sales,
		vendorCost,
		refunds,
		vendorRefunds,
		profit,
		payments: rows.filter((r) => r.kind === 'payment').length,
		paidIn: sum('payment', (r) => r.amount),
		fees,
		net: profit - fees,
		manual,
	};
}

const nairaCell = (kobo: number) => (kobo / 100).toFixed(2);

/** A spreadsheet cell: quoted when it needs to be, and never read as a formula. */
function cell(v: string): string {
	const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
	return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The report as CSV: one line per order, refund, payment and adjustment, then the totals. Naira with kobo. */
export function reportCsv(r: Report): string {
	const head = 'time,type,reference,customer,amount_naira,vendor_cost_naira,fee_naira,profit_naira,note';
	const lines = r.rows.map((x) =>
		[
			x.at,
			x.kind,
			cell(x.reference),
			cell(x.customer),
			nairaCell(x.amount),
			nairaCell(x.vendorCost),
			nairaCell(x.fee),
			nairaCell(x.profit),
			cell(x.note),
		].join(','),
	);
	const total = (name: string, kobo: number) => `${r.to},total,${name},,${nairaCell(kobo)},,,,`;
	return [
		head,
		...lines,
		total('sales', r.sales),
		total('vendor_cost', r.vendorCost),
		total('refunds', r.refunds),
		total('vendor_refunds', r.vendorRefunds),
		total('profit', r.profit),
		total('paid_in', r.paidIn),
		total('fees', r.fees),
		total('net', r.net),
		'',
	].join('\n');
}
