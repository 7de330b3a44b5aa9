/**
 * /history (recent orders, cancelled drafts hidden, a Details button per order), the Details
 * button itself (`order:<id>`) and /status <reference>. Typed during a flow they answer without
 * ending it.
 */
import { Composer, InlineKeyboard, type CommandContext } from 'grammy';
import type { MyContext, Services } from '../context';
import type { Order } from '../journal';
import { menuButton, nextStepKeyboard } from '../flow/keyboards';
import { flowOpen } from '../flow/confirm';
import { dateText, EXPIRED, stillOpen } from '../flow/ui';
import { t } from '../i18n';
import { naira, outcomeText, productName, smsWhat, whatText, resultOf, stateLabel, storedOf, viewOf } from '../orders';
import { errorCode } from '../vtu';
import { tokenOf } from '../delivery';
import { cb, onCallback } from '../callback-data';
import type { Feature } from './registry';

/** Drafts never confirmed are not orders to the seller. */
const HIDDEN = new Set(['created', 'cancelled', 'expired']);

export function historyLine(o: Order, i: number): string {
	const v = {
		n: i + 1,
		date: dateText(o.createdAt),
		what: o.product === 'sms' ? smsWhat(o.request as Record<string, unknown>) : whatText(o),
		amount: naira(o.chargedKobo ?? o.amountKobo),
		state: stateLabel(o),
	};
	// the reference every message of the order gave (a draft that was never sent has none to give)
	const line = o.ident || o.sentAt ? t('history-line-ref', { ...v, ref: o.id }) : t('history-line', v);
	// an electricity token stays readable in the list itself: customers come back for it
	const token = o.state === 'successful' ? tokenOf(o.product, viewOf(o).details) : null;
	return token ? `${line}\n   ${t('history-token', { token })}` : line;
}

export function historyFeature(s: Services) {
	const showHistory = async (ctx: MyContext) => {
		const list = s.journal
			.recentForUser(ctx.from!.id, 50)
			.filter((o) => !HIDDEN.has(o.state))
			.slice(0, 10);
		const open = flowOpen(s, ctx);
		if (!list.length)
			return void (await ctx.reply(
				t('history-empty') + (open ? stillOpen() : ''),
				open ? {} : { reply_markup: menuButton() },
			));
		const kb = new InlineKeyboard();
		list.forEach((o, i) => {
			kb.text(t('btn-history-order', { n: i + 1 }), cb.order(o.id));
			if (i % 5 === 4) kb.row();
		});
		const text = `${t('history-title')}\n${list.map(historyLine).join('\n')}\n\n${t('history-tap')}`;
		await ctx.reply(open ? text + stillOpen() : text, {
			reply_markup: open ? kb : kb.row().text(t('btn-menu'), cb.go('menu')),
		});
	};

	/** The order as it stands now (a pending or delivered order is asked again first). */
	const current = async (o: Order): Promise<Order> => {
		const prev = resultOf(o);
		if (!prev || (o.state !== 'processing' && o.state !== 'successful')) return o;
		try {
			const now = await s.client.transactions.refresh(prev);
			if (now.status === o.state) return o;
			const after = s.journal.recordResult(o.id, storedOf(now));
			s.journal.markNotified(o.id, after.state);
			return after;
		} catch (e) {
			s.logger.warn('status refresh failed', { order: o.id, code: errorCode(e) });
			return o;
		}
	};

	const showOrder = async (ctx: MyContext, found: Order) => {
		const o = await current(found);
		const provider = o.ident ? `\n${t('order-provider-ref', { ref: o.ident })}` : '';
		const title = t('order-title', { product: productName(o.product), date: dateText(o.createdAt) });
		const text = `${title}\n${outcomeText(viewOf(o))}${provider}`;
		if (flowOpen(s, ctx)) await ctx.reply(text + stillOpen());
		else await ctx.reply(text, { reply_markup: nextStepKeyboard(o) });
	};

	const status = async (ctx: CommandContext<MyContext>) => {
		const ref = ctx.match.trim();
		if (!ref) return void (await ctx.reply(t('status-usage')));
		const o = s.journal.findForUser(ctx.from!.id, ref);
		if (!o) return void (await ctx.reply(t('status-not-found'), { reply_markup: menuButton() }));
		await showOrder(ctx, o);
	};
	const composer = new Composer<MyContext>();
	onCallback(composer, ['order'], async (ctx, tap) => {
		const o = s.journal.get(tap.orderId);
		if (!o || o.userId !== ctx.from.id) return void (await ctx.answerCallbackQuery({ text: t(EXPIRED) }));
		await ctx.answerCallbackQuery();
		await showOrder(ctx, o);
	});
	return { composer, showHistory, status };
}

export const history: Feature = {
	name: 'history',
	commands: [
		{ name: 'history', description: 'cmd-history', help: 'help-history', keepsFlow: true },
		{ name: 'status', description: 'cmd-status', help: 'help-status', keepsFlow: true },
	],
	menu: { label: 'menu-history', place: 'history', row: 4 },
	build: (s) => {
		const f = historyFeature(s);
		return {
			composer: f.composer,
			commands: { history: f.showHistory, status: f.status },
			places: { history: f.showHistory },
		};
	},
};
