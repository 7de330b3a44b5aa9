/** /data: network → plan → phone → checks → confirm → buy. */
import { Composer } from 'grammy';
import { createConversation } from '@grammyjs/conversations';
import type { ConvContext, MyContext, MyConversation, Services } from '../context';
import { confirmSteps } from '../flow/confirm';
import { tryAgainKeyboard } from '../flow/keyboards';
import { phonePrompt, pickers } from '../flow/pickers';
import { choose, safeEdit } from '../flow/ui';
import { formatPhone } from '../vtu';
import type { Feature } from './registry';
import { t } from '../i18n';
import { refusedUpFront } from '../flow/checks';

export function dataFeature(s: Services): Composer<MyContext> {
	const { loadNetworks, showPlans, loadPlan, pickNetwork, askPhone } = pickers(s);
	const { confirmAndBuy } = confirmSteps(s);

	async function data(conversation: MyConversation, ctx: ConvContext): Promise<void> {
		if (await refusedUpFront(s, conversation, ctx, 'data')) return;
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
		const purchase = ({ phone, ported }: { phone: string; ported: boolean }) => {
			const description = t('data-description', { network: net.name, plan: plan.name });
			const to = t(ported ? 'phone-target-ported' : 'phone-target', { phone: formatPhone(phone), network: net.name });
			return {
				req: { product: 'data' as const, network: net.id, plan: plan.id, phone, ported },
				meta: {
					gets: t('recipient-to', { what: description, to }),
					target: to,
					description,
					recipient: phone,
					place: 'data' as const,
				},
			};
		};
		const first = purchase(await askPhone(conversation, ctx, net.name, { asked: true }));
		// "Try again" after the vendor refused the number: the network and plan are kept, the number asked again
		await confirmAndBuy(conversation, ctx, first.req, first.meta, {
			fields: ['phone'],
			ask: async (conv, c) => purchase(await askPhone(conv, c, net.name)),
		});
	}

	return new Composer<MyContext>().use(createConversation<MyContext, ConvContext>(data, s.conversationOptions('data')));
}

const enter = (ctx: MyContext) => ctx.conversation.enter('data');

export const data: Feature = {
	name: 'data',
	commands: [{ name: 'data', description: 'cmd-data', help: 'help-data' }],
	menu: { label: 'menu-data', place: 'data', row: 0 },
	build: (s) => ({ flows: dataFeature(s), commands: { data: enter }, places: { data: enter } }),
};
