/** The PIN step after Confirm. The PIN itself only passes through the PIN gate (pin-gate.ts). */
import { InlineKeyboard } from 'grammy';
import type { ConvContext, MyConversation, Services } from '../context';
import { PIN_PLACEHOLDER, type PinVerdict } from '../pin-gate';
import { cb, decodeAs } from '../callback-data';
import { menuButton } from './keyboards';
import { clockText, nudge } from './ui';
import { t } from '../i18n';

/** The order was settled without this prompt (a restart reconciled it): the PIN is not asked for it. */
type StepVerdict = PinVerdict | { kind: 'settled' };

export function pinStep(s: Services) {
	/** PIN step after Confirm. Returns true when the PIN was right. The PIN itself never reaches this function. */
	async function pinCheck(conversation: MyConversation, ctx: ConvContext, orderId: string): Promise<boolean> {
		const userId = ctx.from!.id;
		const cancel = async (text: string) => {
			await conversation.external(() => {
				s.journal.cancel(orderId);
				s.pinGate.disarm(userId);
			});
			await ctx.reply(text, { reply_markup: menuButton() });
			return false;
		};
		// A way out that is not a wrong attempt: this button, or /cancel (commands never reach the PIN gate).
		const kb = new InlineKeyboard().text(t('btn-confirm-cancel'), cb.cancel(orderId));
		for (;;) {
			await conversation.external(() => s.pinGate.expect(userId, 'verify', orderId));
			await ctx.reply(t('pin-authorise'), { reply_markup: kb });
			const m = await conversation.waitUntil(
				(u) => u.message?.text !== undefined || decodeAs(u.callbackQuery?.data, ['cancel'])?.orderId === orderId,
				{ otherwise: (u) => nudge(u, t('pin-your-as-text')) },
			);
			if (m.callbackQuery) {
				await m.answerCallbackQuery({ text: t('confirm-cancelled') });
				await m.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
				return cancel(t('flow-cancelled'));
			}
			const v: StepVerdict = await conversation.external(() =>
				s.journal.get(orderId)?.state === 'created'
					? s.pinGate.takeVerdict(userId, m.update.update_id)
					: { kind: 'settled' as const },
			);
			if (v.kind === 'ok') return true;
			if (v.kind === 'settled') {
				await conversation.external(() => s.pinGate.disarm(userId));
				await ctx.reply(t('pin-order-settled'), { reply_markup: menuButton() });
				return false;
			}
			if (v.kind === 'wrong') await ctx.reply(t('pin-wrong', { n: v.attemptsLeft }));
			else if (v.kind === 'locked') return cancel(t('pin-locked-purchases', { until: clockText(v.until) }));
			else if (v.kind === 'no_pin') return cancel(t('pin-none'));
			else if (m.message!.text !== PIN_PLACEHOLDER) continue;
		}
	}

	return { pinCheck };
}
