/**
 * Confirm, then buy: shared by data, airtime, bulk SMS and "Buy again".
 *
 * 1. Every check that can refuse the purchase runs BEFORE the Confirm button is shown
 *    (checks.ts: price, limits, PIN, balance). A repeat of the same purchase within minutes asks first.
 * 2. The order is journalled (`created`) and the Confirm button carries its id (`confirm:<id>`),
 *    so a stale button never confirms another order. The flow's conversation ends here: the
 *    journal holds everything the purchase needs, so Confirm / Cancel are plain handlers
 *    (confirmButtons), not one more conversation step replaying the whole flow.
 * 3. On Confirm the message becomes "⏳ Sending… don't pay again", typing is shown while the
 *    vendor works (@grammyjs/auto-chat-action), and the same message is edited to the outcome with the
 *    next step's buttons.
 *    With PINs required, a short conversation (`pay`) takes the PIN first.
 * The money moves only in `orders.execute`, behind the journal's atomic created→sent (limits are
 * checked again there, inside the transaction).
 */
import { Composer, InlineKeyboard } from 'grammy';
import { createConversation } from '@grammyjs/conversations';
import type { ConvContext, MyContext, MyConversation, Services } from '../context';
import type { Order } from '../journal';
import { naira, outcomeText, whatText } from '../orders';
import { sendSheet } from '../delivery';
import { t } from '../i18n';
import type { BotPurchaseRequest } from '../vtu';
import { purchaseChecks, type Checked } from './checks';
import { pinStep } from './pin-step';
import { menuButton, nextStepKeyboard, tryAgainKeyboard, type Place } from './keyboards';
import { pickers } from './pickers';
import { EXPIRED, choose, safeEdit } from './ui';
import { cb, onCallback } from '../callback-data';
import { storefrontConfirm } from '../storefront/confirm';
import { retryInFlow, retryKind, type Confirm, type ConfirmMeta } from './retry';

/** How long a purchase may take before "typing…" is shown (the "Sending…" edit is immediate). */
export const TYPING_AFTER_MS = 500;

/** Orders whose Confirm was already used: a replayed tap is told so instead of "expired". */
const USED = new Set(['sent', 'successful', 'processing', 'unknown', 'failed', 'not_charged']);

/** Runs outside any conversation: the purchase, with "typing…" kept alive until it is done. */
function purchase(s: Services) {
	/**
	 * The "⏳ Sending…" edit already shows progress, so typing starts only when the vendor takes
	 * longer than a moment (most purchases answer sooner: one Bot API call less); then
	 * @grammyjs/auto-chat-action re-sends it until `chatAction` is cleared.
	 */
	async function executeWithTyping(ctx: MyContext, orderId: string) {
		const start = setTimeout(() => {
			ctx.chatAction = 'typing';
		}, s.cfg.typingAfterMs);
		try {
			return await s.orders.execute(orderId);
		} finally {
			clearTimeout(start);
			ctx.chatAction = null;
		}
	}

	/** The confirm message becomes "Sending…", then the outcome with the next step's buttons. */
	return async function send(ctx: MyContext, messageId: number, o: Order): Promise<void> {
		const edit = (text: string, kb?: InlineKeyboard) =>
			ctx.api.editMessageText(o.chatId, messageId, text, { reply_markup: kb ?? { inline_keyboard: [] } }).then(
				() => undefined,
				() => undefined,
			);
		s.journal.setMessage(o.id, messageId);
		await edit(`${t('confirm-sending', { what: whatText(o) })}\n${t('outcome-reference', { ref: o.id })}`);
		const out = await executeWithTyping(ctx, o.id);
		// 'already': another tap / instance won the created→sent race and reports the result.
		if (out.kind === 'already') return;
		if (out.kind === 'refused') return void (await edit(out.text, tryAgainKeyboard(o.product as Place)));
		await edit(outcomeText(out.order), nextStepKeyboard(out.order));
		await sendSheet(ctx.api, o.chatId, out.order, s.logger);
		s.journal.markNotified(o.id, out.order.state);
		s.keyboards.forget(o.chatId);
	};
}

/** A confirm message of this user waits for Confirm or Cancel (its order is recent and unconfirmed). */
export function confirmWaiting(s: Services, userId: number): boolean {
	return s.journal.hasUnconfirmed(userId, confirmableSince(s));
}

/** Orders created before this can no longer be confirmed (orders.execute refuses them too). */
const confirmableSince = (s: Services) => s.clock.now() - s.cfg.confirmTtlMs;

/**
 * A flow of this chat is open: a conversation waits for an answer, or a confirm message for its
 * tap (commands like /balance answer without ending it; other commands abandon it).
 */
export function flowOpen(s: Services, ctx: MyContext): boolean {
	return (
		Object.keys(ctx.conversation.active()).length > 0 || (ctx.from !== undefined && confirmWaiting(s, ctx.from.id))
	);
}

/**
 * Confirm / Cancel under a confirm message, and the PIN step after Confirm (conversation `pay`).
 * Install after conversations() and before the unhandled fallback.
 */
export function confirmButtons(s: Services): Composer<MyContext> {
	const send = purchase(s);
	const { pinCheck } = pinStep(s);

	async function pay(
		conversation: MyConversation,
		ctx: ConvContext,
		orderId: string,
		messageId: number,
	): Promise<void> {
		if (!(await pinCheck(conversation, ctx, orderId))) return;
		await conversation.external(async (outside) => {
			const o = s.journal.get(orderId);
			if (o) await send(outside, messageId, o);
		});
	}

	const composer = new Composer<MyContext>();
	composer.use(createConversation<MyContext, ConvContext>(pay, s.conversationOptions('pay')));
	onCallback(composer, ['confirm', 'cancel'], async (ctx, tap) => {
		const { kind: action, orderId: id } = tap;
		const o = s.journal.get(id);
		if (!o || o.userId !== ctx.from.id || o.state !== 'created' || o.createdAt < confirmableSince(s)) {
			const used = o && o.userId === ctx.from.id && USED.has(o.state);
			return void (await ctx.answerCallbackQuery({
				text: used ? t('confirm-already-bought', { ref: o.id }) : t(EXPIRED),
			}));
		}
		const messageId = ctx.callbackQuery.message!.message_id;
		const text = ctx.callbackQuery.message && 'text' in ctx.callbackQuery.message ? ctx.callbackQuery.message.text : '';
		const edit = (more: string, kb?: InlineKeyboard) =>
			ctx
				.editMessageText(text ? `${text}\n\n${more}` : more, { reply_markup: kb ?? { inline_keyboard: [] } })
				.catch(() => undefined);
		if (action === 'cancel') {
			s.journal.cancel(id);
			s.keyboards.forget(o.chatId);
			await ctx.answerCallbackQuery({ text: t('confirm-cancelled') });
			return void (await edit(t('flow-cancelled'), menuButton()));
		}
		await ctx.answerCallbackQuery({ text: t('confirm-confirmed') });
		if (!s.cfg.pinRequired) return send(ctx, messageId, o);
		await edit(t('confirm-waiting-pin'));
		await ctx.conversation.enter('pay', id, messageId);
	});
	return composer;
}

/** The same purchase was made minutes ago: ask before buying it again. */
async function repeatGuard(
	s: Services,
	conversation: MyConversation,
	ctx: ConvContext,
	r: { ago: string; ref: string },
	meta: ConfirmMeta,
): Promise<boolean> {
	const kb = new InlineKeyboard().text(t('btn-repeat-yes'), cb.repeat(true)).text(t('btn-repeat-no'), cb.repeat(false));
	const q = await pickers(s).withButtons(
		conversation,
		ctx,
		t('repeat-question', { ago: r.ago, ref: r.ref, gets: meta.gets }),
		kb,
	);
	const { c, tap } = await choose(conversation, q.message_id, ['repeat'], t('flow-use-buttons'));
	if (tap.yes) {
		await safeEdit(conversation, c, t('repeat-buying', { gets: meta.gets }));
		return true;
	}
	await safeEdit(conversation, c, t('repeat-declined'), menuButton());
	return false;
}

/** The confirm question: price, what the customer gets, and the wallet after it. */
function confirmText(meta: ConfirmMeta, kobo: number, balanceKobo: number | null): string {
	const price = naira(kobo);
	return [
		meta.target ? t('confirm-question-for', { price, target: meta.target }) : t('confirm-question', { price }),
		t('confirm-gets', { gets: meta.gets }),
		meta.payNote ? t('confirm-pay-note', { price, note: meta.payNote }) : t('confirm-pay', { price }),
		...(balanceKobo !== null ? [t('confirm-wallet-after', { balance: naira(balanceKobo - kobo) })] : []),
	].join('\n');
}

export function confirmSteps(s: Services) {
	const { withButtons } = pickers(s);
	const { check } = purchaseChecks(s);

	/** The order journalled (`created`) and its confirm message; the flow ends there (confirmButtons takes the tap). */
	async function offerConfirm(
		conversation: MyConversation,
		ctx: ConvContext,
		req: BotPurchaseRequest,
		meta: ConfirmMeta,
		p: Extract<Checked, { ok: true }>,
	): Promise<void> {
		const userId = ctx.from!.id;
		const chatId = ctx.chat!.id;
		if (p.repeat && !(await repeatGuard(s, conversation, ctx, p.repeat, meta))) return;
		const id = await conversation.external(
			() =>
				s.journal.create({
					userId,
					chatId,
					product: req.product,
					request: req as unknown as Record<string, unknown>,
					description: meta.description,
					recipient: meta.recipient,
					amountKobo: p.kobo,
				}).id,
		);
		const kb = new InlineKeyboard()
			.text(t('btn-confirm-pay', { price: naira(p.kobo) }), cb.confirm(id))
			.text(t('btn-confirm-cancel'), cb.cancel(id));
		// the order's reference from its first message on (Sending…, the outcome and every notice say the same)
		const question = `${confirmText(meta, p.kobo, p.balanceKobo)}\n${t('outcome-reference', { ref: id })}`;
		await withButtons(conversation, ctx, question, kb);
	}

	/**
	 * Checks, then the confirm message. A refusal before anything was bought keeps the flow (retryKind):
	 * "Try again" checks the same choices again, or asks the refused detail again with `reask`, keeping
	 * the choices before it (network, plan; SMS sender and message).
	 */
	const confirmAndBuy: Confirm = async (conversation, ctx, req, meta, reask) => {
		if (s.storefront) return storefrontConfirm(s)(conversation, ctx, req, meta, reask);
		const userId = ctx.from!.id;
		for (;;) {
			const p = await conversation.external(() => check(userId, req, meta));
			if (p.ok) return offerConfirm(conversation, ctx, req, meta, p);
			const kind = retryKind(p.input, reask);
			// another place first (set a PIN), or a wrong detail this flow cannot ask alone: start over there
			if (p.retry || kind === 'restart')
				return void (await ctx.reply(p.text, {
					reply_markup: tryAgainKeyboard(p.retry?.place ?? meta.place, p.retry?.label),
				}));
			await retryInFlow(s, conversation, ctx, p.text);
			if (kind === 'same') continue;
			const next = await reask!.ask(conversation, ctx);
			if (!next) return; // the site could not check the detail asked again: said, the flow ended
			({ req, meta } = next);
			reask = next.reask ?? reask;
		}
	};

	return { confirmAndBuy };
}
