/** /exampin: exam → how many PINs (buttons) → checks → confirm; the PINs and a printable sheet are delivered. */
import { Composer } from 'grammy';
import { createConversation } from '@grammyjs/conversations';
import type { ConvContext, MyContext, MyConversation, Services } from '../context';
import { choiceSteps, customerPricer } from '../flow/choices';
import { confirmSteps } from '../flow/confirm';
import { tryAgainKeyboard } from '../flow/keyboards';
import { safeEdit } from '../flow/ui';
import { t } from '../i18n';
import { naira } from '../orders';
import { PRODUCT_TABLE } from '../vtu';
import type { Feature } from './registry';
import { refusedUpFront } from '../flow/checks';

const QUANTITY = PRODUCT_TABLE.exam_pin.limits.quantity;

export function examPinFeature(s: Services): Composer<MyContext> {
	const { pickOne, pickNext, load } = choiceSteps(s);
	const { confirmAndBuy } = confirmSteps(s);
	const again = () => ({ reply_markup: tryAgainKeyboard('exam_pin') });

	async function examPin(conversation: MyConversation, ctx: ConvContext): Promise<void> {
		if (await refusedUpFront(s, conversation, ctx, 'exam_pin')) return;
		const loaded = await load(conversation, async () => {
			const price = await customerPricer(s, ctx.from?.id);
			return (await s.client.catalog.exams()).map((e) => ({
				exam: String(e.exam).toUpperCase(),
				kobo: price({ product: 'exam_pin', type: String(e.exam) }, e.price.kobo),
			}));
		});
		if (!loaded.ok) return void (await ctx.reply(loaded.text, again()));
		if (!loaded.value.length) return void (await ctx.reply(t('exam-none'), again()));
		const exams = loaded.value;
		const items = exams.map((e, i) => ({
			n: i + 1,
			text: t('exam-button', { exam: e.exam, price: naira(e.kobo) }),
		}));
		const first = await pickOne(conversation, ctx, t('exam-choose'), items);
		const exam = exams[first.item.n - 1].exam;
		const counts = Array.from({ length: QUANTITY.max - QUANTITY.min + 1 }, (_, i) => QUANTITY.min + i);
		const second = await pickNext(
			conversation,
			first.c,
			t('exam-how-many', { exam }),
			counts.map((n) => ({ n, text: String(n) })),
			counts.length,
		);
		const quantity = second.item.n;
		const description = t('exam-description', { exam, n: quantity });
		await safeEdit(conversation, second.c, t('exam-chosen', { what: description }));
		await confirmAndBuy(
			conversation,
			ctx,
			{ product: 'exam_pin', exam, quantity },
			{ gets: description, target: null, description, recipient: null, place: 'exam_pin' },
		);
	}

	return new Composer<MyContext>().use(
		createConversation<MyContext, ConvContext>(examPin, s.conversationOptions('exam_pin')),
	);
}

const enter = (ctx: MyContext) => ctx.conversation.enter('exam_pin');

export const examPins: Feature = {
	name: 'exam_pin',
	commands: [{ name: 'exampin', description: 'cmd-exampin', help: 'help-exampin' }],
	menu: { label: 'menu-exampin', place: 'exam_pin', row: 2 },
	build: (s) => ({ flows: examPinFeature(s), commands: { exampin: enter }, places: { exam_pin: enter } }),
};
