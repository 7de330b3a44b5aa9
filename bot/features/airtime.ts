/** /airtime: network → amount (quick buttons or typed) → phone → checks → confirm → buy. */
import { InlineKeyboard } from 'grammy';
import { cb, decodeAs } from '../callback-data';
import type { ConvContext, MyConversation, Services } from '../context';
import { amountCap, type AmountCap } from '../flow/checks';
import { tryAgainKeyboard } from '../flow/keyboards';
import { airtimeItem } from '../storefront/price-list';
import { pickers } from '../flow/pickers';
import { nudge, safeEdit } from '../flow/ui';
import { naira } from '../orders';
import { PRODUCT_TABLE, formatNaira, formatPhone, parseAmount, type BotPurchaseRequest } from '../vtu';
import { t } from '../i18n';
import { refusalWords } from '../refusals';
import { phoneRedo } from './data';
import { productFeature, type Purchase, type Questions } from './product';

/** Quick amounts offered as buttons, kobo. */
export const QUICK_AMOUNTS = [10_000, 20_000, 50_000, 100_000];
const MIN_KOBO = PRODUCT_TABLE.airtime.limits.minKobo.VTU;

/**
 * A typed amount in kobo, by the client's parser of amounts (client/input.ts): the same rule as a client
 * call or a node.
 */
function typedKobo(text: string): { kobo: number } | { problem: string } {
	try {
		return { kobo: parseAmount(text, 'amount') };
	} catch (e) {
		// said in the catalogue's words, e.g. "₦1,500": type 1500 (refusals.ts)
		return { problem: refusalWords(e, t('input-amount')) };
	}
}

/** Why a typed amount is refused, or null when it is fine (`wallet`: the most is what the wallet pays). */
export function amountProblem(text: string, maxKobo: number, wallet = false): string | null {
	const typed = typedKobo(text);
	if ('problem' in typed) return typed.problem;
	const { kobo } = typed;
	if (kobo < MIN_KOBO) return t('airtime-too-small', { min: naira(MIN_KOBO) });
	if (kobo > maxKobo)
		return t(wallet ? 'sf-amount-over-wallet' : 'airtime-over-limit', { limit: naira(maxKobo), max: naira(maxKobo) });
	return null;
}

/** The airtime amount question: in the storefront, with the most the customer's wallet pays. */
function amountQuestion(network: string, cap: AmountCap): string {
	const min = naira(MIN_KOBO).replace('.00', '');
	if (!cap.wallet) return t('airtime-amount-question', { network, min });
	return t('sf-airtime-amount-question', { network, min, max: naira(cap.max) });
}

function airtimeQuestions(s: Services): Questions {
	const { loadNetworks, pickNetwork, withButtons } = pickers(s);

	async function askAmount(
		conversation: MyConversation,
		ctx: ConvContext,
		netName: string,
		cap: AmountCap,
	): Promise<number> {
		const kb = new InlineKeyboard();
		for (const k of QUICK_AMOUNTS.filter((k) => k <= cap.max)) kb.text(naira(k).replace('.00', ''), cb.amt(k));
		const q = await withButtons(
			conversation,
			ctx,
			amountQuestion(netName, cap),
			kb.row().text(t('btn-cancel'), cb.x()),
		);
		for (;;) {
			const u = await conversation.waitUntil(
				(x) =>
					!!x.message?.text ||
					(x.callbackQuery?.message?.message_id === q.message_id &&
						decodeAs(x.callbackQuery.data, ['amt', 'x']) !== null),
				{
					otherwise: (x) => nudge(x, t('airtime-amount-hint')),
				},
			);
			if (u.callbackQuery) {
				await u.answerCallbackQuery();
				const tap = decodeAs(u.callbackQuery.data, ['amt', 'x'])!;
				if (tap.kind === 'x') {
					await safeEdit(conversation, u, t('flow-cancelled'));
					return conversation.halt();
				}
				const kobo = tap.n;
				await safeEdit(conversation, u, t('airtime-amount-chosen', { network: netName, amount: naira(kobo) }));
				return kobo;
			}
			const problem = amountProblem(u.message!.text!, cap.max, cap.wallet);
			if (problem) {
				await u.reply(problem);
				continue;
			}
			await ctx.api
				.editMessageReplyMarkup(ctx.chatId!, q.message_id, { reply_markup: { inline_keyboard: [] } })
				.catch(() => undefined);
			return (typedKobo(u.message!.text!) as { kobo: number }).kobo;
		}
	}

	return async (conversation, ctx) => {
		const loaded = await loadNetworks(conversation);
		if (!loaded.ok) return void (await ctx.reply(loaded.text, { reply_markup: tryAgainKeyboard('airtime') }));
		const { c, net } = await pickNetwork(conversation, ctx, t('airtime-choose-network'), loaded.value);
		await safeEdit(conversation, c, t('airtime-chosen', { network: net.name }));
		const cap = await amountCap(s, conversation, ctx, {
			place: 'airtime',
			min: MIN_KOBO,
			max: s.cfg.maxPurchaseKobo,
			item: (cat, face) => airtimeItem(cat, net.name, face),
		});
		if (!cap) return;
		const faceKobo = await askAmount(conversation, ctx, net.name, cap);
		return phoneOrder(s, { id: net.id, name: net.name }, faceKobo, false)(conversation, ctx);
	};
}

/**
 * The airtime of `faceKobo` on a number asked now (`asked`: its question is already on screen), and its
 * reask: "Try again" after the vendor refused the number keeps the network and the amount.
 */
function phoneOrder(s: Services, net: { id: string | number; name: string }, faceKobo: number, asked: boolean) {
	const { askPhone } = pickers(s);
	const purchase = ({ phone, ported }: { phone: string; ported: boolean }): Purchase => ({
		request: { product: 'airtime', network: net.id, amount: formatNaira(faceKobo), phone, type: 'VTU', ported },
		meta: {
			gets: t(ported ? 'airtime-gets-ported' : 'airtime-gets', {
				amount: naira(faceKobo),
				network: net.name,
				phone: formatPhone(phone),
			}),
			target: t(ported ? 'phone-target-ported' : 'phone-target', { phone: formatPhone(phone), network: net.name }),
			description: t('airtime-description', { network: net.name, amount: naira(faceKobo) }),
			recipient: phone,
			payNote: t('airtime-pay-note', { amount: naira(faceKobo) }),
		},
	});
	const reask: Purchase['reask'] = {
		fields: ['phone'],
		ask: async (conv, c) => purchase(await askPhone(conv, c, net.name)),
	};
	return async (conversation: MyConversation, ctx: ConvContext): Promise<Purchase> => ({
		...purchase(await askPhone(conversation, ctx, net.name, { asked })),
		reask,
	});
}

export const airtime = productFeature('airtime', airtimeQuestions, {
	command: { name: 'airtime', description: 'cmd-airtime', help: 'help-airtime' },
	menu: { label: 'menu-airtime', row: 0 },
	// "Try again" after the vendor refused the number at the purchase: the order's network and amount, a new number
	redo: (s) =>
		phoneRedo(s, ({ request }, name) => {
			const { network, amount } = request as Extract<BotPurchaseRequest, { product: 'airtime' }>;
			return phoneOrder(s, { id: network, name }, parseAmount(amount, 'amount'), true);
		}),
});
