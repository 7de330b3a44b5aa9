/** /data: network → plan → phone → checks → confirm → buy. */
import type { ConvContext, MyConversation, Services } from '../context';
import { tryAgainKeyboard } from '../flow/keyboards';
import { phonePrompt, pickers } from '../flow/pickers';
import { choose, safeEdit } from '../flow/ui';
import { formatPhone, type BotPurchaseRequest } from '../vtu';
import { t } from '../i18n';
import { productFeature, sentTo, type Purchase, type Questions, type Redo } from './product';

type DataRequest = Extract<BotPurchaseRequest, { product: 'data' }>;

/**
 * The purchase of a plan to a phone, and its reask: "Try again" after the vendor refused the number keeps
 * the network and the plan and asks the number again.
 */
function phoneOrder(s: Services, base: Omit<DataRequest, 'phone' | 'ported'>, network: string, description: string) {
	const { askPhone } = pickers(s);
	const purchase = ({ phone, ported }: { phone: string; ported: boolean }): Purchase => {
		const to = t(ported ? 'phone-target-ported' : 'phone-target', { phone: formatPhone(phone), network });
		return { request: { ...base, phone, ported }, meta: sentTo(description, to, phone) };
	};
	const reask: Purchase['reask'] = {
		fields: ['phone'],
		ask: async (conv, c) => purchase(await askPhone(conv, c, network)),
	};
	return async (conversation: MyConversation, ctx: ConvContext): Promise<Purchase> => ({
		...purchase(await askPhone(conversation, ctx, network, { asked: true })),
		reask,
	});
}

function dataQuestions(s: Services): Questions {
	const { loadNetworks, showPlans, loadPlan, pickNetwork } = pickers(s);

	return async (conversation, ctx) => {
		const loaded = await loadNetworks(conversation);
		if (!loaded.ok) return void (await ctx.reply(loaded.text, { reply_markup: tryAgainKeyboard('data') }));
		const nets = loaded.value.filter((n) => n.planCount > 0);
		if (!nets.length) return void (await ctx.reply(t('data-no-plans'), { reply_markup: tryAgainKeyboard('data') }));
		const { c, net, messageId } = await pickNetwork(conversation, ctx, t('data-choose-network'), nets);
		const shown = await showPlans(conversation, c, net);
		if (!shown.ok) return void (await safeEdit(conversation, c, shown.text, tryAgainKeyboard('data')));
		const chosen = await choose(conversation, messageId, ['plan'], t('data-use-plan-buttons'));
		const found = await loadPlan(conversation, net.id, chosen.tap.n, ctx.from?.id);
		if (!found.ok) return void (await safeEdit(conversation, chosen.c, found.text, tryAgainKeyboard('data')));
		const plan = found.value;
		// The plan message becomes the phone question (no new message for it).
		await safeEdit(
			conversation,
			chosen.c,
			t('data-plan-chosen', { network: net.name, plan: plan.label, prompt: phonePrompt(net.name) }),
		);
		const description = t('data-description', { network: net.name, plan: plan.name });
		const base = { product: 'data' as const, network: net.id, plan: plan.id };
		return phoneOrder(s, base, net.name, description)(conversation, ctx);
	};
}

/**
 * "Try again" after the vendor refused the number at the purchase: the order's network and plan, a new
 * number. Shared with airtime: `order` makes the purchase from the network's name and the new number.
 */
export function phoneRedo(
	s: Services,
	order: (
		refused: { request: BotPurchaseRequest; description: string },
		network: string,
	) => (conversation: MyConversation, ctx: ConvContext) => Promise<Purchase>,
): Redo {
	const { loadNetworks } = pickers(s);
	return {
		fields: ['phone'],
		async ask(conversation, ctx, refused) {
			const req = refused.request as Extract<BotPurchaseRequest, { phone: string; network: string | number }>;
			const place = refused.request.product as 'data' | 'airtime';
			const loaded = await loadNetworks(conversation);
			const net = loaded.ok ? loaded.value.find((n) => n.id === req.network) : undefined;
			if (!net) {
				const text = loaded.ok ? t('again-gone') : loaded.text;
				return void (await ctx.reply(text, { reply_markup: tryAgainKeyboard(place) }));
			}
			const said = t('again-phone', { phone: formatPhone(req.phone), what: refused.description });
			await ctx.reply(`${said}\n${phonePrompt(net.name)}`);
			return order(refused, net.name)(conversation, ctx);
		},
	};
}

export const data = productFeature('data', dataQuestions, {
	command: { name: 'data', description: 'cmd-data', help: 'help-data' },
	menu: { label: 'menu-data', row: 0 },
	redo: (s) =>
		phoneRedo(s, ({ request, description }, network) => {
			const { product, network: id, plan } = request as DataRequest;
			return phoneOrder(s, { product, network: id, plan }, network, description);
		}),
});
