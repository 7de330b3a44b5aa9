/** /setpin: set or change the purchase PIN (the PIN itself only ever passes through the PIN gate). */
import type { Services } from '../context';
import { menuButton, tryAgainKeyboard } from '../flow/keyboards';
import { clockText, nudge } from '../flow/ui';
import { flowFeature, type Flow } from './product';
import { t } from '../i18n';

function setPinFlow(s: Services): Flow {
	return async (conversation, ctx) => {
		const userId = ctx.from!.id;
		const ask = async (mode: 'current' | 'new' | 'repeat', prompt: string) => {
			await conversation.external(() => s.pinGate.expect(userId, mode));
			await ctx.reply(prompt);
			const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, t('pin-as-text')) });
			return conversation.external(() => s.pinGate.takeVerdict(userId, m.update.update_id));
		};
		const st = await conversation.external(() => ({ has: s.pins.has(userId), locked: s.pins.lockedUntil(userId) }));
		if (st.locked)
			return void (await ctx.reply(t('pin-locked-until', { until: clockText(st.locked) }), {
				reply_markup: menuButton(),
			}));
		if (st.has) {
			const v = await ask('current', t('pin-current'));
			if (v.kind !== 'ok') {
				await conversation.external(() => s.pinGate.disarm(userId));
				const why =
					v.kind === 'wrong'
						? t('pin-wrong-left', { n: v.attemptsLeft })
						: v.kind === 'locked'
							? t('pin-locked-short', { until: clockText(v.until) })
							: t('pin-not-checked');
				return void (await ctx.reply(t('pin-not-changed', { why }), { reply_markup: menuButton() }));
			}
		}
		for (;;) {
			const v = await ask('new', t('pin-new'));
			if (v.kind === 'ok') break;
			await ctx.reply(t('pin-digits'));
		}
		const v = await ask('repeat', t('pin-repeat'));
		await conversation.external(() => s.pinGate.disarm(userId));
		if (v.kind === 'ok') await ctx.reply(t('pin-set'), { reply_markup: menuButton() });
		else await ctx.reply(t('pin-mismatch'), { reply_markup: tryAgainKeyboard('setpin') });
	};
}

export const pin = flowFeature('setpin', setPinFlow, {
	command: { name: 'setpin', description: 'cmd-setpin', help: 'help-setpin' },
});
