/** /setpin: set or change the purchase PIN (the PIN itself only ever passes through the PIN gate). */
import { Composer } from 'grammy';
import { createConversation } from '@grammyjs/conversations';
import type { ConvContext, MyContext, MyConversation, Services } from '../context';
import { menuButton, tryAgainKeyboard } from '../flow/keyboards';
import { clockText, nudge } from '../flow/ui';
import type { Feature } from './registry';

export function pinFeature(s: Services): Composer<MyContext> {
  async function setpin(conversation: MyConversation, ctx: ConvContext): Promise<void> {
    const userId = ctx.from!.id;
    const ask = async (mode: 'current' | 'new' | 'repeat', prompt: string) => {
      await conversation.external(() => s.pinGate.expect(userId, mode));
      await ctx.reply(prompt);
      const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, 'Send the PIN as a text message, or /cancel.') });
      return conversation.external(() => s.pinGate.takeVerdict(userId, m.update.update_id));
    };
    const st = await conversation.external(() => ({ has: s.pins.has(userId), locked: s.pins.lockedUntil(userId) }));
    if (st.locked) return void (await ctx.reply(`Your PIN is locked until ${clockText(st.locked)} (an admin can unlock you sooner).`, { reply_markup: menuButton() }));
    if (st.has) {
      const v = await ask('current', 'Send your current PIN. (I delete PIN messages right away.)');
      if (v.kind !== 'ok') {
        await conversation.external(() => s.pinGate.disarm(userId));
        const why = v.kind === 'wrong' ? `Wrong PIN (${v.attemptsLeft} attempts left).` : v.kind === 'locked' ? `Too many wrong PINs: locked until ${clockText(v.until)}.` : 'PIN not checked.';
        return void (await ctx.reply(`${why} Your PIN was not changed.`, { reply_markup: menuButton() }));
      }
    }
    for (;;) {
      const v = await ask('new', 'Send a new PIN: 4 to 6 digits. (I delete the message right away.)');
      if (v.kind === 'ok') break;
      await ctx.reply('A PIN is 4 to 6 digits.');
    }
    const v = await ask('repeat', 'Send the same PIN again to confirm.');
    await conversation.external(() => s.pinGate.disarm(userId));
    if (v.kind === 'ok') await ctx.reply('✅ PIN set. I will ask for it before every purchase.', { reply_markup: menuButton() });
    else await ctx.reply('The two PINs did not match. Nothing changed.', { reply_markup: tryAgainKeyboard('setpin') });
  }

  return new Composer<MyContext>().use(createConversation<MyContext, ConvContext>(setpin, s.conversationOptions('setpin')));
}

const enter = (ctx: MyContext) => ctx.conversation.enter('setpin');

export const pin: Feature = {
  name: 'pin',
  commands: [{ name: 'setpin', description: 'cmd-setpin', help: 'help-setpin' }],
  build: (s) => ({ flows: pinFeature(s), commands: { setpin: enter }, places: { setpin: enter } }),
};
