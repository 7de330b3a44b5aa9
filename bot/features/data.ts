/** /data: network → plan → phone → checks → confirm → buy. */
import type { Services } from '../context';
import { tryAgainKeyboard } from '../flow/keyboards';
import { phonePrompt, pickers } from '../flow/pickers';
import { choose, safeEdit } from '../flow/ui';
import { formatPhone } from '../vtu';
import { t } from '../i18n';
import { productFeature, sentTo, type Purchase, type Questions } from './product';

function dataQuestions(s: Services): Questions {
	const { loadNetworks, showPlans, loadPlan, pickNetwork, askPhone } = pickers(s);

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
		const purchase = ({ phone, ported }: { phone: string; ported: boolean }): Purchase => {
			const description = t('data-description', { network: net.name, plan: plan.name });
			const to = t(ported ? 'phone-target-ported' : 'phone-target', { phone: formatPhone(phone), network: net.name });
			return {
				request: { product: 'data', network: net.id, plan: plan.id, phone, ported },
				meta: sentTo(description, to, phone),
			};
		};
		return {
			...purchase(await askPhone(conversation, ctx, net.name, { asked: true })),
			// "Try again" after the vendor refused the number: the network and plan are kept, the number asked again
			reask: { fields: ['phone'], ask: async (conv, c) => purchase(await askPhone(conv, c, net.name)) },
		};
	};
}

export const data = productFeature('data', dataQuestions, {
	command: { name: 'data', description: 'cmd-data', help: 'help-data' },
	menu: { label: 'menu-data', row: 0 },
});
