/** Admin commands: /allow, /deny, /users, /unlock (PIN lockout). Admins see names, not bare IDs. */
import type { Services } from '../context';
import { mainMenuKeyboard } from '../flow/keyboards';
import type { CommandHandler, Feature } from './registry';

const parseId = (s: string) => (/^\d{1,15}$/.test(s.trim()) ? Number(s.trim()) : null);

export function adminFeature(s: Services): Record<string, CommandHandler> {
  /** Tell a user something; they may never have opened the bot (Telegram then refuses). */
  const tell = async (userId: number, text: string, markup = mainMenuKeyboard()) => {
    try {
      await s.api.sendMessage(userId, text, { reply_markup: markup });
      return true;
    } catch (e) {
      s.logger.warn('could not message user', { user: userId, err: e instanceof Error ? e.message : String(e) });
      return false;
    }
  };

  const allow: CommandHandler = async (ctx) => {
    const id = parseId(ctx.match);
    if (id === null) return void (await ctx.reply('Usage: /allow <telegram user id> (the number strangers are shown).'));
    s.access.allow(id, ctx.from!.id);
    s.logger.info('user allowed', { user: id, by: ctx.from!.id });
    const told = await tell(id, '✅ You can now use this bot. What would you like to do?');
    await ctx.reply(`✅ ${s.access.describe(id)} may now use the bot.${told ? ' I told them.' : ' I could not message them yet: they should send /start.'}`);
  };
  const deny: CommandHandler = async (ctx) => {
    const id = parseId(ctx.match);
    if (id === null) return void (await ctx.reply('Usage: /deny <telegram user id>'));
    if (!s.access.deny(id, ctx.from!.id)) return void (await ctx.reply('Admins cannot be removed from chat; change BOT_ADMIN_IDS.'));
    s.journal.cancelCreatedFor(id);
    s.logger.info('user denied', { user: id, by: ctx.from!.id });
    await ctx.reply(`🚫 ${s.access.describe(id)} can no longer use the bot.`);
  };
  const users: CommandHandler = (ctx) => ctx.reply(`Allowed users:\n${s.access.listAllowed().map((id) => s.access.describe(id)).join('\n')}`);
  const unlock: CommandHandler = async (ctx) => {
    const id = parseId(ctx.match);
    if (id === null) return void (await ctx.reply('Usage: /unlock <telegram user id>: lifts a PIN lockout (the PIN stays the same).'));
    if (!s.pins.unlock(id)) return void (await ctx.reply(`${s.access.describe(id)} has no PIN: nothing to unlock.`));
    s.logger.info('PIN lockout reset', { user: id, by: ctx.from!.id });
    await tell(id, '🔓 An admin unlocked your purchases. You can buy again with your PIN.');
    await ctx.reply(`🔓 ${s.access.describe(id)} is unlocked.`);
  };
  const onlyAdmins = (h: CommandHandler): CommandHandler => (ctx) => (s.access.isAdmin(ctx.from?.id) ? h(ctx) : ctx.reply('Only admins can do that.'));
  return { allow: onlyAdmins(allow), deny: onlyAdmins(deny), users: onlyAdmins(users), unlock: onlyAdmins(unlock) };
}

export const admin: Feature = {
  name: 'admin',
  commands: [
    { name: 'allow', description: 'cmd-allow', admin: true },
    { name: 'deny', description: 'cmd-deny', admin: true },
    { name: 'users', description: 'cmd-users', admin: true },
    { name: 'unlock', description: 'cmd-unlock', admin: true },
  ],
  build: (s) => ({ commands: adminFeature(s) }),
};
