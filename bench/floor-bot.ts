/**
 * MEASURING BASELINE for bench/bot.ts, not a product path: the barest grammY bot that can serve
 * the bench's buyers. It answers the five updates of a data purchase (/data → MTN → plan → phone →
 * Confirm) with exactly the Bot API calls the real bot makes for them (same methods, same count,
 * the same texts from the bot's message catalogue, keyboards of the same shape and size) and does
 * the one real `client.buy` at Confirm. Nothing else: no storage, no journal, no conversations,
 * no gates, no checks, no retries. What the real bot costs above this is what its layers cost.
 *
 * Kept equal to the real bot: grammY itself, `sequentialize(sequentialKey)` first, the Bot API
 * client of bot/bot.ts `botApiClient` (keep-alive pool and fetch), the typing indicator of
 * @grammyjs/auto-chat-action, the texts of bot/i18n.ts, the callback data of bot/callback-data.ts,
 * and (in the bench) bot/polling.ts's runner setup.
 */
import { Bot, InlineKeyboard, type Context } from 'grammy';
import { sequentialize } from '@grammyjs/runner';
import { autoChatAction, type AutoChatActionFlavor } from '@grammyjs/auto-chat-action';
import { botApiClient, sequentialKey } from '../bot/bot';
import { cb } from '../bot/callback-data';
import { TYPING_AFTER_MS } from '../bot/flow/confirm';
import { grid } from '../bot/flow/ui';
import { t } from '../bot/i18n';
import type { VtuClientLike } from '../bot/vtu';
import { nairaText } from '../client/money';
import { formatPhone } from '../client/phone';

export async function createFloorBot(
	token: string,
	apiRoot: string,
	client: VtuClientLike,
): Promise<Bot<Context & AutoChatActionFlavor>> {
	// The price list once, up front: the real bot reads the client's cached catalogue per update.
	const nets = (await client.catalog.networks()).filter((n) => n.plans.some((p) => p.available));
	const netKb = grid(
		new InlineKeyboard(),
		nets.map((n) => ({ text: String(n.name), data: cb.net(n.id) })),
		2,
	).text(t('btn-cancel'), cb.x());
	const plans = new Map(
		nets.map((n) => {
			const kb = grid(
				new InlineKeyboard(),
				n.plans.filter((p) => p.available).map((p) => ({ text: p.label, data: `plan:${n.id}.${p.id}` })),
				1,
			);
			return [n.id, { name: String(n.name), kb: kb.text(t('btn-cancel'), cb.x()), plans: n.plans }];
		}),
	);
	/** "MTN data 1GB SME (30 days)", as the real bot names a plan. */
	const planName = (net: number, plan: number) => {
		const n = plans.get(net)!;
		const p = n.plans.find((x) => x.id === plan)!;
		return {
			n,
			p,
			name: t('data-description', {
				network: n.name,
				plan: `${p.size} ${p.kind}${p.validity ? ` (${p.validity})` : ''}`,
			}),
		};
	};

	const bot = new Bot<Context & AutoChatActionFlavor>(token, { client: { ...botApiClient(apiRoot), apiRoot } });
	bot.use(sequentialize(sequentialKey));
	bot.use(autoChatAction());
	/** The one thing a bot must remember between updates: the plan a chat chose, until its phone number comes. */
	const chosen = new Map<number, { net: number; plan: number }>();
	const noKeyboard = { inline_keyboard: [] };

	bot.command('data', (ctx) => ctx.reply(t('data-choose-network'), { reply_markup: netKb }));
	bot.callbackQuery(/^net:(\d+)$/, async (ctx) => {
		const n = plans.get(Number(ctx.match[1]))!;
		await ctx.answerCallbackQuery();
		await ctx.editMessageText(t('data-choose-plan', { network: n.name }), { reply_markup: n.kb });
	});
	bot.callbackQuery(/^plan:(\d+)\.(\d+)$/, async (ctx) => {
		const [net, plan] = [Number(ctx.match[1]), Number(ctx.match[2])];
		const n = plans.get(net)!;
		chosen.set(ctx.chat!.id, { net, plan });
		await ctx.answerCallbackQuery();
		const label = n.plans.find((p) => p.id === plan)!.label;
		await ctx.editMessageText(
			t('data-plan-chosen', { network: n.name, plan: label, prompt: t('phone-prompt', { network: n.name }) }),
			{ reply_markup: noKeyboard },
		);
	});
	bot.on('message:text', async (ctx) => {
		const c = chosen.get(ctx.chat.id);
		if (!c) return;
		chosen.delete(ctx.chat.id);
		const { n, p, name } = planName(c.net, c.plan);
		const to = t('phone-target', { phone: formatPhone(ctx.message.text), network: n.name });
		const price = nairaText(p.price.kobo);
		// The real bot's confirm carries a journal order id; the floor has no journal and packs the order in its place.
		const kb = new InlineKeyboard()
			.text(t('btn-confirm-pay', { price }), `confirm:${c.net}.${c.plan}.${ctx.message.text}`)
			.text(t('btn-confirm-cancel'), cb.cancel('x'));
		const text = [
			t('confirm-question-for', { price, target: to }),
			t('confirm-gets', { gets: t('recipient-to', { what: name, to }) }),
			t('confirm-pay', { price }),
			t('confirm-wallet-after', { balance: '(not checked)' }),
		].join('\n');
		await ctx.reply(text, { reply_markup: kb });
	});
	bot.callbackQuery(/^confirm:(\d+)\.(\d+)\.(\d+)$/, async (ctx) => {
		const [network, plan, phone] = [Number(ctx.match[1]), Number(ctx.match[2]), ctx.match[3]];
		const what = t('recipient-to', { what: planName(network, plan).name, to: formatPhone(phone) });
		await ctx.answerCallbackQuery({ text: t('confirm-confirmed') });
		await ctx.editMessageText(t('confirm-sending', { what }), { reply_markup: noKeyboard });
		const start = setTimeout(() => {
			ctx.chatAction = 'typing';
		}, TYPING_AFTER_MS);
		try {
			const r = await client.buy({ product: 'data', network, plan, phone });
			const lines = [
				t('outcome-head', { icon: '✅', label: t('state-successful'), what }),
				t('outcome-charged', { charged: nairaText(r.amount.kobo) }),
				t('outcome-reference', { ref: r.ident ?? '' }),
				...(r.balanceAfter ? [t('outcome-balance', { balance: nairaText(r.balanceAfter.kobo) })] : []),
			];
			const kb = new InlineKeyboard().text(t('btn-buy-again'), cb.again('x')).text(t('btn-menu'), cb.go('menu'));
			await ctx.editMessageText(lines.join('\n'), { reply_markup: kb });
		} finally {
			clearTimeout(start);
			ctx.chatAction = null;
		}
	});
	return bot;
}
