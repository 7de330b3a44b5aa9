/**
 * A sign of progress whenever the bot is slow to answer an update (a catalogue load, a balance read, a
 * validation, a storefront order): once the update has been handled for `afterMs`, "typing…" is shown
 * and @grammyjs/auto-chat-action (installed before this) re-sends it until the handler ends. Only slow
 * updates pay for the extra Bot API call; a flow waiting for the customer's reply has already returned.
 */
import type { NextFunction } from 'grammy';
import type { MyContext } from '../context';

export function typingWhileSlow(afterMs: number) {
	return async (ctx: MyContext, next: NextFunction): Promise<void> => {
		if (ctx.chat?.type !== 'private') return next();
		const start = setTimeout(() => {
			ctx.chatAction ??= 'typing';
		}, afterMs);
		try {
			await next();
		} finally {
			clearTimeout(start);
			ctx.chatAction = null;
		}
	};
}
