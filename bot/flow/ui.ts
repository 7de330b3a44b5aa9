/**
 * Small UI helpers shared by the features: button grids, waiting for a tap on one message,
 * editing a message without failing on "message is not modified", seller-facing dates.
 */
import { InlineKeyboard } from 'grammy';
import type { ConvContext, MyConversation } from '../context';
import { decodeAs, type CallbackKind, type Of } from '../callback-data';
import { t } from '../i18n';

/** Catalogue key of the answer to a tap nothing waits for. */
export const EXPIRED = 'button-expired';

/** A result that crossed `conversation.external`: plain JSON, either a value or a seller-facing text. */
export type Loaded<T> = { ok: true; value: T } | { ok: false; text: string };

/** Answer an update a flow did not expect: stale buttons are told so, text gets a hint. */
export async function nudge(c: ConvContext, hint: string): Promise<void> {
	if (c.callbackQuery) await c.answerCallbackQuery({ text: t(EXPIRED) });
	else if (c.message) await c.reply(hint);
}

/**
 * Edit the message the tap `c` came from; without `markup` its keyboard is removed. Sent with the
 * outside api from `conversation.external`, so the conversation's state keeps nothing of it (a
 * call through `c` would keep the whole edited Message, keyboard included, and the state is
 * parsed and written again on every update of the flow).
 */
export async function safeEdit(
	conversation: MyConversation,
	c: ConvContext,
	text: string,
	markup?: InlineKeyboard,
): Promise<void> {
	const chatId = c.chatId!;
	const messageId = c.msgId!;
	await conversation.external((outside) =>
		outside.api.editMessageText(chatId, messageId, text, { reply_markup: markup ?? { inline_keyboard: [] } }).then(
			() => undefined,
			() => undefined, // "message is not modified" or deleted: nothing to do.
		),
	);
}

export function grid(kb: InlineKeyboard, items: { text: string; data: string }[], perRow: number): InlineKeyboard {
	items.forEach((it, i) => {
		kb.text(it.text, it.data);
		if ((i + 1) % perRow === 0 || i === items.length - 1) kb.row();
	});
	return kb;
}

/** Wait for a tap on `messageId` whose data is one of `kinds` (or the flow's Cancel). Halts on Cancel. */
export async function choose<K extends CallbackKind>(
	conversation: MyConversation,
	messageId: number,
	kinds: K[],
	hint: string,
): Promise<{ c: ConvContext; tap: Of<K> }> {
	const c = await conversation.waitUntil(
		(u) =>
			u.callbackQuery?.message?.message_id === messageId && decodeAs(u.callbackQuery.data, [...kinds, 'x']) !== null,
		{ otherwise: (u) => nudge(u, hint) },
	);
	await c.answerCallbackQuery();
	const tap = decodeAs<K | 'x'>(c.callbackQuery!.data, [...kinds, 'x'])!;
	if (tap.kind === 'x') {
		await safeEdit(conversation, c, t('flow-cancelled'));
		return conversation.halt();
	}
	return { c, tap: tap as Of<K> };
}

export function clockText(ms: number): string {
	return t('clock-lagos', {
		time: new Date(ms).toLocaleTimeString('en-GB', { timeZone: 'Africa/Lagos', hour: '2-digit', minute: '2-digit' }),
	});
}

export function dateText(ms: number): string {
	return new Date(ms).toLocaleString('en-GB', {
		timeZone: 'Africa/Lagos',
		day: '2-digit',
		month: 'short',
		hour: '2-digit',
		minute: '2-digit',
	});
}

/** Appended to an answer given while a flow is open. */
export const stillOpen = (): string => `\n\n${t('flow-still-open')}`;
