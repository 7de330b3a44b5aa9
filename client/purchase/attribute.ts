/**
 * A send the site answered "sent" without a record (family builds' bulk SMS: a text, no ident, no date).
 * Which history row is it? Named only with proof, else the result says it was sent and names no record.
 *
 * Proof: the answer said sent, so our row exists, and it was saved before the answer: its create_date lies
 * in [sentAt, receivedAt] on the server's clock (± skewMs; any timezone while the clock is unknown). The
 * history is read back past that window's start; if exactly one unclaimed row in the whole window matches
 * (sender, message, the same recipients) and no identical batch of this process is in flight, that row is
 * ours: any other process's identical row in the window would make two.
 */
import { VtuError } from '../errors';
import type { PreparedPurchase, ProductModule } from '../products/common';
import type { PurchaseResult } from '../types';
import { inWindow } from './clock';
import { claim, isClaimed, matchKey, recordKey } from './claims';
import type { PurchaseContext } from './context';
import { readRecent } from './records';

export async function attributeSend(
	ctx: PurchaseContext,
	module: ProductModule,
	prep: PreparedPurchase,
	r: PurchaseResult,
	at: { sentAt: number; receivedAt: number },
	signal?: AbortSignal,
): Promise<PurchaseResult> {
	const unproven = (why: string): PurchaseResult => ({
		...r,
		details: { ...r.details, attribution: `no record named: ${why}` },
	});
	const identicalInFlight = () => (ctx.account.inflight.get(matchKey(prep)) ?? 0) > 1;
	if (identicalInFlight()) return unproven('an identical batch of this process was in flight');
	let items: PurchaseResult[];
	try {
		const out = await readRecent(ctx, module, prep, { sinceMs: at.sentAt }, signal);
		if (!out.complete)
			return unproven(`the history since the send is longer than ${out.pages} pages (reconcile.readBackPages)`);
		items = out.items;
	} catch (e) {
		ctx.logger?.warn?.(`${module.product}: could not read the history to name the record of a send`, {
			code: e instanceof VtuError ? e.code : 'unknown',
		});
		return unproven('the history could not be read');
	}
	const rows = new Map<string, PurchaseResult>();
	for (const h of items) {
		if (prep.match.test(h) && !isClaimed(ctx, h) && inWindow(ctx, h.createdAt, at.sentAt, at.receivedAt))
			rows.set(recordKey(h) ?? JSON.stringify(h.raw), h);
	}
	// decided and claimed in one synchronous step
	if (identicalInFlight()) return unproven('an identical batch of this process was in flight');
	if (rows.size !== 1)
		return unproven(rows.size ? `${rows.size} identical sends in the history could be it` : 'no matching history row');
	const hit = [...rows.values()][0];
	const named: PurchaseResult = {
		...r,
		id: hit.id,
		ident: hit.ident,
		createdAt: hit.createdAt,
		amount: hit.amount.kobo > 0 ? hit.amount : r.amount,
		details: {
			...r.details,
			pages: hit.details.pages || r.details.pages,
			attribution: "the only matching history row of the send's time window",
		},
	};
	claim(ctx, named);
	return named;
}
