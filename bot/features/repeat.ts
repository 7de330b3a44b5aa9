/** "🔁 Buy again" / "Try again" under an outcome: a new confirm for the same purchase, checks and all. */
import { Composer } from 'grammy';
import { createConversation } from '@grammyjs/conversations';
import type { ConvContext, MyContext, MyConversation, Services } from '../context';
import { confirmSteps } from '../flow/confirm';
import { menuButton, type Place } from '../flow/keyboards';
import { recipientOf, whatText } from '../orders';
import type { BotPurchaseRequest } from '../vtu';
import { onCallback } from '../callback-data';
import type { Feature } from './registry';
import { t } from '../i18n';

export function repeatFeature(s: Services): Composer<MyContext> {
	const { confirmAndBuy } = confirmSteps(s);

	async function again(conversation: MyConversation, ctx: ConvContext, orderId: string): Promise<void> {
		const userId = ctx.from!.id;
		const o = await conversation.external(() => {
			const o = s.journal.get(orderId);
			return o && o.userId === userId
				? { request: o.request, product: o.product, description: o.description, recipient: o.recipient }
				: null;
		});
		if (!o) return void (await ctx.reply(t('repeat-order-gone'), { reply_markup: menuButton() }));
		await confirmAndBuy(conversation, ctx, o.request as unknown as BotPurchaseRequest, {
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
