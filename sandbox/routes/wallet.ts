/**
 * GET /api/Wallet_summary/: the account's wallet history, one row per balance change, written by the
 * ledger itself (every debit, refund and funding, other buyers' in busy mode included), newest first.
 * Rows are `{ident, product, amount, previous_balance, after_balance, create_date}`; `product` is free text
 * in the family's own wording (docs/real-sites.md §10). Which builds serve it and in which shape is in
 * sandbox/builds.ts (`walletSummary`); the seed dialect has no such route.
 */
import type { FastifyInstance } from 'fastify';
import { buildOf } from '../builds';
import { CABLE_PLANS, discoById, networkById, planById, planName } from '../catalog';
import { apiRoute, type Ctx, notFoundPage, type Out, type Runtime } from '../http';
import { pyFloat } from '../money';
import { drfPage } from './history';
import type { LedgerEntry, Product, SandboxState, Txn } from '../state';

/** The debit text of a purchase, as the family's views write it ("MTN 1.0GB   N239.0  DATA topup  with 080…"). */
function debitText(t: Txn): string {
	const d = t.d;
	const amt = pyFloat(t.amountKobo);
	switch (t.product) {
		case 'data': {
			const p = planById.get(d.planId!)!;
			return `${networkById.get(p.networkId)!.name} ${planName(p)}   N${amt}  DATA topup  with ${t.recipient} `;
		}
		case 'airtime':
			return (
				`${networkById.get(d.networkId!)!.name} ${pyFloat(d.faceKobo!)} ${d.airtimeType} Airtime topup  with ` +
				`${t.recipient} `
			);
		case 'cable':
			return `${CABLE_PLANS.find((p) => p.id === d.cablePlanId)!.name} N${amt} Cablesub  with ${t.recipient} `;
		case 'electricity':
			return `${discoById.get(d.discoId!)!.name} ${pyFloat(d.faceKobo!)} Bill Payment  with ${t.recipient} `;
		case 'exam_pin':
			return `${d.exam} Result checker pin x${d.quantity}  N${amt} `;
		case 'recharge_card':
			return `${networkById.get(d.networkId!)!.name} Recharge card printing x${d.quantity}  N${amt} `;
		case 'sms':
			return `Bulk sms to ${d.to!.length} numbers  N${amt} `;
		case 'data_coupon': {
			const p = planById.get(d.planId!)!;
			// not seen on a real site (docs/real-sites.md §10 grades the other products' wording)
			return `${networkById.get(p.networkId)!.name} ${planName(p)} Data pin x${d.quantity}  N${amt} `;
		}
	}
}

/** The refund text, as the models' save() hooks write it ("FAILED DATA TOPUP REFUND for …"). */
function refundText(t: Txn): string {
	const text = debitText(t).trim();
	return t.product === 'data' ? `FAILED DATA TOPUP REFUND for ${text.replace(' DATA topup ', '')} ` : `${text} Refund `;
}

function textOf(state: SandboxState, e: LedgerEntry): string {
	if (e.kind === 'fund') return `Wallet Funding with sum of ${pyFloat(e.amountKobo)}`;
	const t = e.txnId !== null ? state.find(e.product as Product, e.txnId) : undefined;
	if (!t) return `${String(e.product).toUpperCase()} verification charge ${e.ident ?? ''}`.trim();
	return e.kind === 'refund' ? refundText(t) : debitText(t);
}

function row(state: SandboxState, e: LedgerEntry): Record<string, unknown> {
	const before = e.kind === 'debit' ? e.balanceAfterKobo + e.amountKobo : e.balanceAfterKobo - e.amountKobo;
	return {
		// the row's own reference: random on real sites, unrelated to the purchase's ident
		ident: `${(e.seq * 2_654_435_761) % 4_294_967_296}${e.seq}`,
		product: textOf(state, e),
		amount: pyFloat(e.amountKobo),
		previous_balance: pyFloat(before),
		after_balance: pyFloat(e.balanceAfterKobo),
		create_date: `${e.at.slice(0, 23)}000`,
	};
}

/**
 * Newest first; `?search=` matches the text or the row's ident (case-insensitive). Entries, not rows: a page renders
 * only its own.
 */
function walletEntries(c: Ctx, search: string | undefined): readonly LedgerEntry[] {
	const entries = c.state.ledgerOf(c.user.username);
	if (!search) return entries;
	const s = search.toLowerCase();
	return entries.filter((e) => textOf(c.state, e).toLowerCase().includes(s) || row(c.state, e).ident === search);
}

function paginated(c: Ctx): Out {
	const search = c.query.search || undefined;
	const query = search ? `search=${encodeURIComponent(search)}` : '';
	return drfPage(c, walletEntries(c, search), (e) => row(c.state, e), '/api/Wallet_summary/', query);
}

export function walletRoutes(app: FastifyInstance, rt: Runtime): void {
	apiRoute(app, rt, 'GET', '/api/Wallet_summary/', (c) => {
		if (c.dialect !== 'family') return notFoundPage();
		const shape = buildOf(c.state)?.walletSummary ?? 'paginated';
		if (shape === 'none') return notFoundPage();
		// the LegitData view: every row in one bare list, ?search= ignored
		if (shape === 'paginated') return paginated(c);
		return { status: 200, body: [...walletEntries(c, undefined)].reverse().map((e) => row(c.state, e)) };
	});
}
