/** /airtime: network → amount → phone → confirm → buy. */
import { Composer } from 'grammy';
import { createConversation } from '@grammyjs/conversations';
import type { ConvContext, MyContext, MyConversation, Services } from '../context';
import { naira } from '../orders';
import { purchaseSteps } from '../flow/purchase';
import { nudge, safeEdit } from '../flow/ui';
import { formatNaira, formatPhone, tryParseKobo } from '../vtu';

export function airtimeFeature(s: Services): Composer<MyContext> {
  const { loadNetworks, pickNetwork, askPhone, confirmAndBuy } = purchaseSteps(s);
  async function airtime(conversation: MyConversation, ctx: ConvContext): Promise<void> {
    const loaded = await loadNetworks(conversation);
    if (!loaded.ok) return void (await ctx.reply(loaded.text));
    const { c, net } = await pickNetwork(conversation, ctx, 'Buy airtime: choose the network.', loaded.value);
    await safeEdit(c, `${net.name} airtime.`);
    await ctx.reply(`How much ${net.name} airtime? Send an amount in naira (at least ₦50), e.g. 200.`);
    let faceKobo = 0;
    for (;;) {
      const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, 'Send the amount as a number, or /cancel.') });
      // The client's exact parser: "200", "₦1,500", "150.50"; more than two decimals is refused.
      const kobo = tryParseKobo(m.message.text, false);
      if (kobo === null || kobo < 0) {
        await m.reply('Send the amount as a number of naira, e.g. 200 or 150.50.');
        continue;
      }
      faceKobo = kobo;
      if (faceKobo < 5000) {
        await m.reply('The smallest airtime top-up is ₦50.');
        continue;
      }
      if (faceKobo > s.cfg.maxPurchaseKobo) {
        await m.reply(`That is above your per-purchase limit of ${naira(s.cfg.maxPurchaseKobo)}. Send a smaller amount.`);
        continue;
      }
      break;
    }
    const { phone, ported } = await askPhone(conversation, ctx, net.name);
    const amount = formatNaira(faceKobo);
    await confirmAndBuy(
      conversation,
      ctx,
      { product: 'airtime', network: net.id, amount, phone, type: 'VTU', ported },
      { target: `${formatPhone(phone)} (${net.name}${ported ? ', ported' : ''})`, description: `${net.name} airtime ${naira(faceKobo)}`, recipient: phone },
    );
  }

  const composer = new Composer<MyContext>();
  composer.use(createConversation<MyContext, ConvContext>(airtime, s.conversationOptions('airtime')));
  composer.command('airtime', (ctx) => ctx.conversation.enter('airtime'));
  return composer;
}
