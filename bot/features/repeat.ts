/**
 * "🔁 Buy again" / "Try again" under an outcome: a new confirm for the same purchase, checks and all. Under an
 * order the vendor refused at the purchase itself naming a detail the product asks alone (the phone, the IUC,
 * the meter, the SMS list), "Try again" asks only that detail again, keeping the order's other choices; the
 * confirm makes a new order (the refused one stays in the journal, not charged).
 */
import { Composer } from 'grammy';
import { createConversation } from '@grammyjs/conversations';
import type { ConvContext, MyContext, MyConversation, Services } from '../context';
import { confirmSteps } from '../flow/confirm';
import { menuButton, type Place } from '../flow/keyboards';
import { recipientOf, whatText } from '../orders';
import type { BotPurchaseRequest } from '../vtu';
import { onCallback } from '../callback-data';
import { confirmArgs, type ProductPlace, type Redo } from './product';
import type { Feature } from './registry';
import { t } from '../i18n';

/** What "Try again" needs of an order (plain JSON: it is kept in the conversation's state). */
interface Again {
	request: Record<string, unknown>;
	product: string;
	description: string;
	recipient: string | null;
	/** The detail the vendor refused by name at the purchase itself (not charged); null otherwise. */
	refused: string | null;
}

export function repeatFeature(s: Services): Composer<MyContext> {
	const { confirmAndBuy } = confirmSteps(s);
	const redos = new Map<string, Redo>(s.features.flatMap((f) => (f.redo ? [[f.name, f.redo(s)] as const] : [])));

	/** The product's Redo when the vendor refused, at the purchase, a detail that product asks alone. */
	const redoOf = (o: Again): Redo | undefined => {
		const redo = o.refused === null ? undefined : redos.get(o.product);
		return redo?.fields.includes(o.refused!) ? redo : undefined;
	};

	async function again(conversation: MyConversation, ctx: ConvContext, orderId: string): Promise<void> {
		const userId = ctx.from!.id;
		const o = await conversation.external((): Again | null => {
			const o = s.journal.get(orderId);
			if (!o || o.userId !== userId) return null;
			const named = o.state === 'not_charged' && o.errorCode === 'invalid_input' ? o.errorField : null;
			const { request, product, description, recipient } = o;
			return { request, product, description, recipient, refused: named };
		});
		if (!o) return void (await ctx.reply(t('repeat-order-gone'), { reply_markup: menuButton() }));
		const request = o.request as unknown as BotPurchaseRequest;
		const redo = redoOf(o);
		if (redo) {
			const p = await redo.ask(conversation, ctx, { request, description: o.description });
			if (!p) return;
			const { req, meta, reask } = confirmArgs(p, o.product as ProductPlace, redo);
			return confirmAndBuy(conversation, ctx, req, meta, reask);
		}
		await confirmAndBuy(conversation, ctx, request, {
			gets: whatText(o),
			target: recipientOf(o),
			description: o.description,
			recipient: o.recipient,
			place: o.product as Place,
		});
	}

	const composer = new Composer<MyContext>();
	composer.use(createConversation<MyContext, ConvContext>(again, s.conversationOptions('again')));
	onCallback(composer, ['again'], async (ctx, tap) => {
		await ctx.answerCallbackQuery();
		await ctx.conversation.enter('again', tap.orderId);
	});
	return composer;
}

export const repeat: Feature = { name: 'repeat', build: (s) => ({ composer: repeatFeature(s) }) };
