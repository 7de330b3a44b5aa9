/** /exampin: exam → how many PINs (buttons) → checks → confirm; the PINs and a printable sheet are delivered. */
import type { Services } from '../context';
import { choiceSteps, customerPricer } from '../flow/choices';
import { safeEdit } from '../flow/ui';
import { t } from '../i18n';
import { naira } from '../orders';
import { PRODUCT_TABLE } from '../vtu';
import { endingSteps, forNoOne, productFeature, type Questions } from './product';

const QUANTITY = PRODUCT_TABLE.exam_pin.limits.quantity;

function examPinQuestions(s: Services): Questions {
	const { pickOne, pickNext } = choiceSteps(s);
	const { loadList } = endingSteps(s, 'exam_pin');

	return async (conversation, ctx) => {
		const exams = await loadList(conversation, ctx, 'exam-none', async () => {
			const price = await customerPricer(s, ctx.from?.id);
			return (await s.client.catalog.exams()).map((e) => ({
				exam: String(e.exam).toUpperCase(),
				kobo: price({ product: 'exam_pin', type: String(e.exam) }, e.price.kobo),
			}));
		});
		if (!exams) return;
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
		return { request: { product: 'exam_pin', exam, quantity }, meta: forNoOne(description) };
	};
}

export const examPins = productFeature('exam_pin', examPinQuestions, {
	command: { name: 'exampin', description: 'cmd-exampin', help: 'help-exampin' },
	menu: { label: 'menu-exampin', row: 2 },
});
