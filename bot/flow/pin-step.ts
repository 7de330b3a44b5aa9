/** The PIN step after Confirm. The PIN itself only passes through the PIN gate (pin-gate.ts). */
import type { ConvContext, MyConversation, Services } from '../context';
import { PIN_PLACEHOLDER } from '../pin-gate';
import { menuButton } from './keyboards';
import { clockText, nudge } from './ui';
import { t } from '../i18n';

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
		for (;;) {
			await conversation.external(() => s.pinGate.expect(userId, 'verify'));
			await ctx.reply(t('pin-authorise'));
			const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, t('pin-your-as-text')) });
			const v = await conversation.external(() => s.pinGate.takeVerdict(userId, m.update.update_id));
			if (v.kind === 'ok') return true;
			if (v.kind === 'wrong') await ctx.reply(t('pin-wrong', { n: v.attemptsLeft }));
			else if (v.kind === 'locked') return cancel(t('pin-locked-purchases', { until: clockText(v.until) }));
			else if (v.kind === 'no_pin') return cancel(t('pin-none'));
			else if (m.message.text !== PIN_PLACEHOLDER) continue;
		}
	}

	return { pinCheck };
}
