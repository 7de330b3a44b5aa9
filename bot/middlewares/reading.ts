/**
 * Reading commands (the registry's `keepsFlow`: /balance, /help, /history, /status, /prices, /fund, /support)
 * are answered at once, even while the same chat's purchase is still waiting for the vendor.
 *
 * Every other update of a chat runs one after another (`sequentialize` in bot.ts, per chat and per user),
 * so a second Confirm, a new flow or a PIN can never race a purchase. A reading command buys nothing and
 * changes no flow, so it gets a queue of its own (`r<chat>`: two of them still answer in order), and it
 * sees the conversations through a storage that never writes: the update of the purchase still running
 * holds the chat's conversation state and writes it when it ends; a write from the reading command (the
 * plugin writes back what it read) could bring back a flow that ended meanwhile.
 */
import type { Context } from 'grammy';
import type { ConversationStorageAdapter } from '../storage';

/** "/status@MyBot Data12" → "status"; undefined when the text is not a command. */
export function commandName(text: string | undefined): string | undefined {
	if (!text?.startsWith('/')) return undefined;
	const word = text.slice(1).split(/\s/, 1)[0];
	return word.split('@', 1)[0].toLowerCase();
}

/** A text command in `names`, addressed to this bot (no "@OtherBot"). */
export function isReadingCommand(ctx: Context, names: ReadonlySet<string>): boolean {
	const text = ctx.message?.text;
	const name = commandName(text);
	if (name === undefined || !names.has(name)) return false;
	const at = text!.slice(1).split(/\s/, 1)[0].split('@')[1];
	return at === undefined || at.toLowerCase() === ctx.me?.username?.toLowerCase();
}

/**
 * Keys that must not run concurrently: the chat (conversation state) and the user (PIN gate, limits);
 * a reading command only waits for the reading commands of its chat.
 */
export function sequentialKeyOf(names: ReadonlySet<string>) {
	return (ctx: Context): string[] => {
		if (ctx.chat && isReadingCommand(ctx, names)) return [`r${ctx.chat.id}`];
		const keys: string[] = [];
		if (ctx.chat) keys.push(`c${ctx.chat.id}`);
		if (ctx.from) keys.push(`u${ctx.from.id}`);
		return keys;
	};
}

/** The conversation storage as a reading command sees it: read, never written. */
export function readOnlyStorage(adapter: ConversationStorageAdapter): ConversationStorageAdapter {
	return {
		read: (key) => adapter.read(key),
		write: () => undefined,
		delete: () => undefined,
	};
}
