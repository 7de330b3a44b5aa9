/**
 * A command typed during a flow abandons it: its unconfirmed order is cancelled and the buttons
 * of its messages are taken away. /cancel says so. Reading commands (`keepsFlow` in the registry:
 * /balance, /help, /history, /status…) leave the flow open; createBot answers them before this (reading.ts).
 */
import { Composer } from 'grammy';
import type { MyContext, Services } from '../context';
import { flowOpen } from '../flow/confirm';
import { menuButton } from '../flow/keyboards';
import type { Feature } from '../features/registry';
import { t } from '../i18n';
import { commandName } from './reading';

const CANCEL = /^\/cancel(@\w+)?\b/;

/** /cancel is handled by the middleware below, before any flow can take the update; the registry lists it. */
export const cancel: Feature = {
	name: 'cancel',
	commands: [{ name: 'cancel', description: 'cmd-cancel', help: 'help-cancel' }],
	build: () => ({}),
};

/** `keepFlow`: commands answered during a flow without ending it (the registry's `keepsFlow`). */
export function flowCommands(s: Services, keepFlow: ReadonlySet<string>): Composer<MyContext> {
	const abandon = async (ctx: MyContext) => {
		await ctx.conversation.exitAll();
		const uid = ctx.from!.id;
		s.journal.cancelCreatedFor(uid);
		s.pinGate.disarm(uid);
		await s.keyboards.clear(ctx.chat!.id, ctx.api, s.logger);
	};
	const composer = new Composer<MyContext>();
	composer.use(async (ctx, next) => {
		const text = ctx.message?.text;
		if (text?.startsWith('/')) {
			const active = flowOpen(s, ctx);
			if ((active && !keepFlow.has(commandName(text)!)) || CANCEL.test(text)) await abandon(ctx);
			if (CANCEL.test(text))
				return void (await ctx.reply(active ? t('flow-cancelled') : t('cancel-nothing'), {
					reply_markup: menuButton(),
				}));
		}
		await next();
	});
	return composer;
}
