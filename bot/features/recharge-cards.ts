/**
 * /cards: network → card value → how many (typed, read by the client's parser) → checks → confirm; the PINs
 * and a printable card sheet (a file) are delivered.
 */
import type { Services } from '../context';
import { choiceSteps, customerPricer, parsed, type Pricer } from '../flow/choices';
import { safeEdit } from '../flow/ui';
import { t } from '../i18n';
import { naira } from '../orders';
import { PRODUCT_TABLE, parseQuantity, type RechargeDenomination } from '../vtu';
import { endingSteps, forNoOne, productFeature, type Questions } from './product';

const QUANTITY = PRODUCT_TABLE.recharge_card.limits.quantity;

interface Card {
	id: number;
	networkId: number;
	network: string;
	face: number;
	kobo: number;
}

const cardsOf = (list: RechargeDenomination[], price: Pricer): Card[] =>
	list.map((d) => ({
		id: d.id,
		networkId: d.networkId,
		network: String(d.network),
		face: d.faceValue.kobo,
		kobo: price({ product: 'recharge_card', type: String(d.network), plan: String(d.id) }, d.price.kobo),
	}));

function rechargeCardQuestions(s: Services): Questions {
	const { pickOne, pickNext, askTyped } = choiceSteps(s);
	const { loadList } = endingSteps(s, 'recharge_card');

	return async (conversation, ctx) => {
		const all = await loadList(conversation, ctx, 'cards-none', async () =>
			cardsOf(await s.client.catalog.recharge(), await customerPricer(s, ctx.from?.id)),
		);
		if (!all) return;
		const networks = [...new Map(all.map((c) => [c.networkId, { n: c.networkId, text: c.network }])).values()];
		const first = await pickOne(conversation, ctx, t('cards-choose-network'), networks, 2);
		const values = all
			.filter((c) => c.networkId === first.item.n)
			.map((c) => ({ n: c.id, text: t('cards-button', { face: naira(c.face), price: naira(c.kobo) }) }));
		const title = t('cards-choose-value', { network: first.item.text });
		const second = await pickNext(conversation, first.c, title, values, 1);
		const card = all.find((c) => c.id === second.item.n)!;
		const hint = t('cards-how-many', { min: QUANTITY.min, max: QUANTITY.max });
		const label = t('cards-label', { network: card.network, face: naira(card.face) });
		await safeEdit(conversation, second.c, t('cards-chosen', { card: label, prompt: hint }));
		const { value: quantity } = await askTyped(conversation, hint, (text) =>
			parsed(() => parseQuantity(text, 'quantity', QUANTITY.min, QUANTITY.max)),
		);
		const description = t('cards-description', { n: quantity, card: label });
		return {
			request: { product: 'recharge_card', network: card.networkId, denomination: card.id, quantity },
			meta: forNoOne(description),
		};
	};
}

export const rechargeCards = productFeature('recharge_card', rechargeCardQuestions, {
	command: { name: 'cards', description: 'cmd-cards', help: 'help-cards' },
	menu: { label: 'menu-cards', row: 2 },
});
