/**
 * Storefront mode's confirm step, used by every product flow in place of the till's: the seller's
 * price, the float guard and the wallet are checked before the Confirm button; the flow itself waits for
 * the tap (`pay:y`, or the flow's Cancel) and then places the order on the customer's wallet. The order id
 * is made once inside `conversation.external`, so a replayed flow can never place a second order.
 */
import { InlineKeyboard } from 'grammy';
import { VtuError } from '../../client/errors';
import type { OrderOutcome, OrderState } from '../../store/orders';
import { cb } from '../callback-data';
import type { ConvContext, MyConversation, Services } from '../context';
import { retryInFlow, retryKind, type Confirm, type ConfirmMeta } from '../flow/retry';
import { sendSheet, withDelivered } from '../delivery';
import { menuButton, tryAgainKeyboard } from '../flow/keyboards';
import { failText, pickers } from '../flow/pickers';
import { choose, safeEdit, type Loaded } from '../flow/ui';
import { t } from '../i18n';
import { naira, userError } from '../orders';
import { refusalWords } from '../refusals';
import type { BotPurchaseRequest } from '../vtu';
import type { Offer, StoreSide } from './service';

type Ready = Extract<Offer, { ok: true }>;

/** An offer, or why not (`input`: the vendor refused a detail, see retryKind). */
type OfferOrNot = Loaded<Ready> | { ok: false; text: string; input?: { field?: string } };

async function offerOf(s: Services, side: StoreSide, userId: number, req: BotPurchaseRequest): Promise<OfferOrNot> {
	try {
		const o = await side.offer(userId, req);
		return o.ok ? { ok: true, value: o } : o;
	} catch (e) {
		await side.noteVendorError(e);
		if (e instanceof VtuError && e.code === 'insufficient_balance') return { ok: false, text: t('sf-float-refused') };
		// worded as the till's quote (failText: refusalWords for a refusal), never the vendor's raw body
		const text = failText(s, t('sf-quote-failed'), e);
		return e instanceof VtuError && e.code === 'invalid_input'
			? { ok: false, text, input: { field: e.field } }
			: { ok: false, text };
	}
}

/**
 * The order's own reference, said from the Confirm question to the last message (the vendor's may follow:
 * it is what the vendor's support asks for).
 */
export function referenceLines(orderId: string, vendorRef?: string | null): string[] {
	return [
		t('outcome-reference', { ref: orderId }),
		...(vendorRef ? [t('order-provider-ref', { ref: vendorRef })] : []),
	];
}

/** The message an order's outcome becomes, in the flow. */
async function outcomeText(side: StoreSide, userId: number, meta: ConfirmMeta, out: OrderOutcome): Promise<string> {
	const w = await side.wallet(userId);
	const vars = { gets: meta.gets, price: naira(out.price), balance: naira(w.available) };
	if (out.state === 'settled') {
		const receipt = t('sf-receipt', { ...vars, ref: out.orderId });
		const provider = out.result?.ident ? [t('order-provider-ref', { ref: out.result.ident })] : [];
		return withDelivered([receipt, ...provider], out.result?.product ?? '', out.result?.details ?? {});
	}
	const ref = t('outcome-reference', { ref: out.orderId });
	if (out.state === 'refunded') return `${t('sf-refunded-now', vars)}\n${ref}`;
	if (out.state === 'released') {
		// the vendor refused a detail at the purchase: said as the till says it (a named one asked again, placeAndTell)
		const e = out.error;
		const why = e?.code === 'invalid_input' ? [userError(e.code, e.field)] : [];
		return [t('sf-released-now', vars), ...why, ref].join('\n');
	}
	return `${t('sf-unknown-now', vars)}\n${ref}`;
}

/** The text of the outcome, and what a delivered order hands over (plain JSON: it crosses an external). */
interface Told {
	/** null: another tap's flow tells it (sameOrder). */
	text: string | null;
	/**
	 * Refused before anything was held, or by the vendor at the purchase naming a detail (the hold released): the
	 * flow offers "Try again" (`input`: a detail refused, see retryKind).
	 */
	refused?: { input?: { field?: string } };
	delivered: { product: string; ident: string | null; details: Record<string, unknown> } | null;
}

/**
 * The outcome of an order placed by another tap (another instance), or null while that tap's purchase still
 * runs: its flow writes the order's state, claims `order:<id>:<state>`, then edits the message, so it edits
 * after this read and this tap leaves the message to it (no wait here). An order still held whose claim
 * exists ended unclear and was told "being confirmed": told so here too. Whichever tap edits last, the
 * message shows the order's end (the follower tells a later one).
 */
async function sameOrder(side: StoreSide, orderId: string, price: number): Promise<OrderOutcome | null> {
	const row = await side.books.db.selectFrom('orders').select('state').where('id', '=', orderId).executeTakeFirst();
	const state = (row?.state ?? 'held') as OrderState;
	if (state !== 'held') return { orderId, state, price };
	return (await side.told(`order:${orderId}:unknown`)) ? { orderId, state: 'unknown', price } : null;
}

/** Places the order; every refusal is a text (nothing was held then). */
async function placeAndTell(
	s: Services,
	side: StoreSide,
	userId: number,
	offer: Ready,
	req: BotPurchaseRequest,
	meta: ConfirmMeta,
	at: { chatId: number; messageId: number },
): Promise<Told> {
	if (Date.now() - offer.at > s.cfg.confirmTtlMs) return { text: t('sf-offer-expired'), delivered: null, refused: {} };
	try {
		// the "Buying…" message, kept before the purchase is sent: after a crash the follower edits it
		await side.keepMessage(offer.orderId, at.chatId, at.messageId);
		const out = await side.place(userId, offer.orderId, req, offer.price);
		if (out.error) await side.noteVendorError(out.error);
		await side.claim(`order:${out.orderId}:${out.state}`); // told here: the follower does not tell it again
		if (out.state !== 'held' && out.state !== 'unknown') await side.messageShowsEnd(out.orderId);
		const r = out.state === 'settled' ? out.result : null;
		if (r) await side.keepDelivery(out.orderId, r.product, r.details ?? {}); // /history shows it again
		const delivered = r ? { product: r.product, ident: r.ident, details: r.details ?? {} } : null;
		const text = await outcomeText(side, userId, meta, out);
		// the vendor refused a detail by name at the purchase: released, nothing bought; see retryKind
		const field = out.state === 'released' && out.error?.code === 'invalid_input' ? out.error.field : undefined;
		return field ? { text, delivered, refused: { input: { field } } } : { text, delivered };
	} catch (e) {
		// the same order already placed: a double tap that reached another instance, whose flow tells the outcome
		if (e instanceof VtuError && e.code === 'invalid_input' && e.field === 'orderId') {
			const same = await sameOrder(side, offer.orderId, offer.price);
			return { text: same && (await outcomeText(side, userId, meta, same)), delivered: null };
		}
		const text = await refusalText(s, side, userId, offer, e);
		if (!(e instanceof VtuError)) return { text, delivered: null };
		if (e.code === 'insufficient_balance') return { text, delivered: null, refused: {} };
		// a changed price: a new offer for the same choices; another detail refused: see retryKind
		if (e.code === 'invalid_input')
			return { text, delivered: null, refused: e.field === 'price' ? {} : { input: { field: e.field } } };
		return { text, delivered: null };
	}
}

/** Why placing the order failed, in the customer's words. */
async function refusalText(s: Services, side: StoreSide, userId: number, offer: Ready, e: unknown): Promise<string> {
	if (e instanceof VtuError && e.code === 'insufficient_balance') {
		const w = await side.wallet(userId);
		return w.available < offer.price
			? t('sf-wallet-short', { price: naira(offer.price), available: naira(w.available) })
			: t('sf-float-refused');
	}
	// a refused detail as the till words it (refusalWords, userError): named, never the vendor's raw body
	if (e instanceof VtuError && e.code === 'invalid_input')
		return e.field === 'price' ? t('sf-price-changed') : refusalWords(e, t('input-refused'));
	await side.noteVendorError(e);
	s.logger.error('storefront order failed', { user: userId, order: offer.orderId, err: e });
	return t('sf-order-error', { ref: offer.orderId });
}

/** The Confirm question with the order's reference; the flow waits for the tap (`pay:y`, or Cancel). */
async function askToPay(
	s: Services,
	conversation: MyConversation,
	ctx: ConvContext,
	meta: ConfirmMeta,
	offer: Ready,
): Promise<ConvContext> {
	const price = naira(offer.price);
	const kb = new InlineKeyboard().text(t('btn-confirm-pay', { price }), cb.pay(true)).text(t('btn-cancel'), cb.x());
	const question = [
		meta.target ? t('confirm-question-for', { price, target: meta.target }) : t('confirm-question', { price }),
		t('confirm-gets', { gets: meta.gets }),
		t('sf-confirm-from-wallet', { price }),
		...referenceLines(offer.orderId),
	].join('\n');
	const m = await pickers(s).withButtons(conversation, ctx, question, kb);
	return (await choose(conversation, m.message_id, ['pay'], t('flow-use-buttons'))).c;
}

/**
 * A refusal before anything was held keeps the flow: "Try again" makes a new offer for the same choices, or
 * (the vendor refused a detail) asks that detail again with `reask`. So does the vendor's refusal of a named
 * detail at the purchase itself (nothing bought, the hold released once by the store). Each offer is its own
 * order id.
 */
export const storefrontConfirm =
	(s: Services): Confirm =>
	async (conversation, ctx, req, meta, reask) => {
		const side = s.storefront!;
		const userId = ctx.from!.id;
		for (;;) {
			const offer = await conversation.external(() => offerOf(s, side, userId, req));
			let refused: { text: string; input?: { field?: string } } | null = offer.ok ? null : offer;
			let on: ConvContext | undefined; // the Confirm message, when the refusal came after its tap
			if (offer.ok) {
				const c = await askToPay(s, conversation, ctx, meta, offer.value);
				const sending = [t('sf-sending', { gets: meta.gets }), ...referenceLines(offer.value.orderId)].join('\n');
				await safeEdit(conversation, c, sending);
				const at = { chatId: c.chatId!, messageId: c.msgId! };
				const told = await conversation.external(() => placeAndTell(s, side, userId, offer.value, req, meta, at));
				if (!told.refused) return tell(s, conversation, ctx, c, told, meta, offer.value.orderId);
				refused = { text: told.text ?? '', input: told.refused.input };
				on = c;
			}
			const kind = retryKind(refused!.input, reask);
			if (kind === 'restart') {
				if (on) return void (await safeEdit(conversation, on, refused!.text, tryAgainKeyboard(meta.place)));
				return void (await ctx.reply(refused!.text, { reply_markup: tryAgainKeyboard(meta.place) }));
			}
			await retryInFlow(s, conversation, ctx, refused!.text, on);
			if (kind === 'same') continue;
			const next = await reask!.ask(conversation, ctx);
			if (!next) return; // the site could not check the detail asked again: said, the flow ended
			({ req, meta } = next);
			reask = next.reask ?? reask;
		}
	};

/** The outcome in the Confirm message; what a delivered order hands over (PINs) as a sheet. */
async function tell(
	s: Services,
	conversation: MyConversation,
	ctx: ConvContext,
	c: ConvContext,
	told: Told,
	meta: ConfirmMeta,
	orderId: string,
): Promise<void> {
	if (told.text !== null) await safeEdit(conversation, c, told.text, menuButton());
	const d = told.delivered;
	if (d) {
		const chatId = ctx.chat!.id;
		const o = { state: 'successful', description: meta.description, id: orderId, ...d };
		await conversation.external((outside) => sendSheet(outside.api, chatId, o, s.logger));
	}
}
