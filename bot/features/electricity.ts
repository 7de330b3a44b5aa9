/**
 * /electricity: disco → prepaid or postpaid → meter (checked with the site, the customer's name shown) →
 * amount → checks → confirm. The token is first in the outcome message (delivery.ts withDelivered) and in
 * /history.
 */
import type { Services } from '../context';
import { choiceSteps, parsed, type Parsed } from '../flow/choices';
import type { AccountCheck, Holder } from '../flow/validate';
import { amountCap } from '../flow/checks';
import { electricityItem } from '../storefront/price-list';
import { t } from '../i18n';
import { naira } from '../orders';
import { PRODUCT_TABLE, formatNaira, parseAmount, type BotPurchaseRequest } from '../vtu';
import { endingSteps, productFeature, sentTo, type Purchase, type Questions, type Redo } from './product';

const LIMITS = PRODUCT_TABLE.electricity.limits;
const TYPES = [
	{ n: 1, type: 'prepaid' as const, text: () => t('meter-prepaid') },
	{ n: 2, type: 'postpaid' as const, text: () => t('meter-postpaid') },
];

/**
 * A typed amount by the client's parser, within the product's bounds and the user's per-purchase limit
 * (`wallet`: `maxKobo` is what the customer's wallet pays, already within both).
 */
export function meterAmount(text: string, maxKobo: number, wallet = false): Parsed<number> {
	const p = parsed(() => parseAmount(text, 'amount'));
	if (!p.ok) return p;
	if (p.value < LIMITS.minKobo)
		return { ok: false, problem: t('electricity-too-small', { min: naira(LIMITS.minKobo) }) };
	const max = Math.min(maxKobo, LIMITS.maxKobo);
	if (p.value > max)
		return { ok: false, problem: t(wallet ? 'sf-amount-over-wallet' : 'electricity-too-large', { max: naira(max) }) };
	return p;
}

type ElectricityRequest = Extract<BotPurchaseRequest, { product: 'electricity' }>;

const meterCheck = (
	s: Services,
	disco: { id: number; name: string },
	meterType: 'prepaid' | 'postpaid',
): AccountCheck => ({
	field: 'meter',
	what: t('meter-what'),
	digits: LIMITS.meterDigits,
	hint: t('meter-prompt', { disco: disco.name, min: LIMITS.meterDigits.min, max: LIMITS.meterDigits.max }),
	validate: (meter) => s.client.electricity.validate({ disco: disco.id, meter, meterType }),
	unknown: (meter) => t('meter-unknown', { disco: disco.name, meter }),
});

/** The amount to the meter checked with the site (its holder named in the confirm question). */
function meterPurchase(base: Omit<ElectricityRequest, 'meter'>, description: string, holder: Holder): Purchase {
	const { number: meter, name } = holder;
	return { request: { ...base, meter }, meta: sentTo(description, t('meter-target', { meter, name }), meter) };
}

function electricityQuestions(s: Services): Questions {
	const { pickOne, pickNext, askTyped } = choiceSteps(s);
	const { loadList, askHolder } = endingSteps(s, 'electricity');

	return async (conversation, ctx) => {
		const discos = await loadList(conversation, ctx, 'electricity-none', async () =>
			(await s.client.catalog.discos()).map((d) => ({ n: d.id, text: d.name })),
		);
		if (!discos) return;
		const first = await pickOne(conversation, ctx, t('electricity-choose-disco'), discos, 2);
		const disco = { id: first.item.n, name: first.item.text };
		const types = TYPES.map((x) => ({ n: x.n, text: x.text() }));
		const second = await pickNext(conversation, first.c, t('electricity-choose-type', { disco: disco.name }), types, 2);
		const meterType = TYPES.find((x) => x.n === second.item.n)!.type;
		const holder = await askHolder(conversation, ctx, second.c, meterCheck(s, disco, meterType), (prompt) =>
			t('electricity-type-chosen', { type: second.item.text, prompt }),
		);
		if (!holder) return;
		const { number: meter, name, address } = holder;
		const cap = await amountCap(s, conversation, ctx, {
			place: 'electricity',
			min: LIMITS.minKobo,
			max: Math.min(s.cfg.maxPurchaseKobo, LIMITS.maxKobo),
			item: (_c, face) => electricityItem(disco.name, face),
		});
		if (!cap) return;
		const range = { min: naira(LIMITS.minKobo), max: naira(cap.max) };
		const hint = t(cap.wallet ? 'sf-electricity-amount-prompt' : 'electricity-amount-prompt', range);
		await ctx.reply(`${t(address ? 'meter-holder-address' : 'meter-holder', { meter, name, address })}\n\n${hint}`);
		const { value: kobo } = await askTyped(conversation, hint, (text) => meterAmount(text, cap.max, cap.wallet));
		const vars = { disco: disco.name, type: second.item.text, amount: naira(kobo) };
		const description = t('electricity-description', vars);
		const base = { product: 'electricity' as const, disco: disco.id, meterType, amount: formatNaira(kobo) };
		return meterPurchase(base, description, holder);
	};
}

/** "Try again" after the vendor refused the meter at the purchase: the order's disco, type and amount, a new meter. */
function electricityRedo(s: Services): Redo {
	const { loadList, askAgain } = endingSteps(s, 'electricity');
	return {
		fields: ['meter'],
		async ask(conversation, ctx, refused) {
			const { meter, ...base } = refused.request as ElectricityRequest;
			const discos = await loadList(conversation, ctx, 'again-gone', async () =>
				(await s.client.catalog.discos()).filter((d) => d.id === base.disco).map((d) => ({ id: d.id, name: d.name })),
			);
			if (!discos) return;
			const check = meterCheck(s, discos[0], base.meterType);
			const holder = await askAgain(conversation, ctx, t('again-meter', { meter, what: refused.description }), check);
			return holder && meterPurchase(base, refused.description, holder);
		},
	};
}

export const electricity = productFeature('electricity', electricityQuestions, {
	command: { name: 'electricity', description: 'cmd-electricity', help: 'help-electricity' },
	menu: { label: 'menu-electricity', row: 1 },
	redo: electricityRedo,
});
