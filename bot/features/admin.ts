/** Admin commands: /allow, /deny, /users. */
import { Composer } from 'grammy';
import type { MyContext, Services } from '../context';

const parseId = (s: string) => (/^\d{1,15}$/.test(s.trim()) ? Number(s.trim()) : null);

export function adminFeature(s: Services): Composer<MyContext> {
  const composer = new Composer<MyContext>();
  const admin = composer.filter((ctx) => s.access.isAdmin(ctx.from?.id));
  admin.command('allow', async (ctx) => {
    const id = parseId(ctx.match);
    if (id === null) return void (await ctx.reply('Usage: /allow <telegram user id> (the number strangers are shown).'));
    s.access.allow(id, ctx.from!.id);
    s.logger.info('user allowed', { user: id, by: ctx.from!.id });
    await ctx.reply(`✅ User ${id} may now use the bot.`);
  });
  admin.command('deny', async (ctx) => {
    const id = parseId(ctx.match);
    if (id === null) return void (await ctx.reply('Usage: /deny <telegram user id>'));
    if (!s.access.deny(id, ctx.from!.id)) return void (await ctx.reply('Admins cannot be removed from chat; change BOT_ADMIN_IDS.'));
    s.journal.cancelCreatedFor(id);
    s.logger.info('user denied', { user: id, by: ctx.from!.id });
    await ctx.reply(`🚫 User ${id} can no longer use the bot.`);
  });
  admin.command('users', (ctx) => ctx.reply(`Allowed users:\n${s.access.listAllowed().join('\n')}`));
  composer.command(['allow', 'deny', 'users'], (ctx) => ctx.reply('Only admins can do that.'));
  return composer;
}
