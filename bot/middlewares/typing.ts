/**
 * A sign of progress whenever the bot is slow to answer an update (a catalogue load, a balance read, a
 * validation, a storefront order): once the update has been handled for `afterMs` without a message sent or
 * edited, "typing…" is shown and @grammyjs/auto-chat-action (installed before this) re-sends it until the
 * handler ends. Only slow updates pay for the extra Bot API call; a flow waiting for the customer's reply has
 * already returned.
 *
 * An update that has already sent or edited a message has shown its sign of progress (its answer, or a
 * "Sending…"): typing after it would only say "more is coming" for up to 5 s when nothing is (Telegram clears
 * typing when a message arrives, not when one is edited). Under load, most slow updates are slow in the round
 * trip of their answer (bench:bot at 500 buyers: ~1,400 of ~1,500 typing actions came after the answer was
 * sent), so they send none now. Seen: calls through the update's own `ctx.api` (the features' `outside.api`
 * in conversations too); a message sent through a conversation's own context is not seen, and typing may
 * still follow it, as before. A handler that sets `ctx.chatAction` itself (the purchase, flow/confirm.ts)
 * keeps its typing.
 */
import type { NextFunction } from 'grammy';
import type { MyContext } from '../context';

/**
 * Bot API methods that put a message in the chat or change what one says: the user has seen the bot answer.
 * Taking a keyboard away (editMessageReplyMarkup) is not an answer.
 */
const ANSWERS = /^(send(?!ChatAction)|editMessage(Text|Caption|Media)$|copyMessage|forwardMessage)/;

export function typingWhileSlow(afterMs: number) {
	return async (ctx: MyContext, next: NextFunction): Promise<void> => {
		if (ctx.chat?.type !== 'private') return next();
		let answered = false;
		ctx.api.config.use((prev, method, payload, signal) => {
			if (!answered && ANSWERS.test(method)) answered = true;
			return prev(method, payload, signal);
		});
		const start = setTimeout(() => {
			if (!answered) ctx.chatAction ??= 'typing';
		}, afterMs);
		try {
			await next();
		} finally {
			clearTimeout(start);
			ctx.chatAction = null;
		}
	};
}
