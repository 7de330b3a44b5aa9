/**
 * Steps the bill and PIN products share: a list of buttons to pick one item from (a new message, or the
 * tapped message edited into the next list), a typed answer read by the client's strict parser
 * (client/input.ts: its invalid_input said in the catalogue's words, refusals.ts), and
 * a catalogue read inside `conversation.external` (plain JSON, small: ids, names and kobo only).
 */
import { InlineKeyboard } from 'grammy';
import type { ConvContext, MyConversation, Services } from '../context';
import { cb } from '../callback-data';
import { t } from '../i18n';
import { refusalWords } from '../refusals';
import type { PriceKey } from '../../store/prices';
import { buttonSteps, failText } from './pickers';
import { choose, grid, nudge, type Loaded } from './ui';

export interface Item {
	n: number;
	text: string;
}

/** A typed answer: the value, or why it is refused (a catalogue text). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Run one of the client's parsers; its invalid_input, in the catalogue's words, is the problem shown. */
export function parsed<T>(parse: () => T): Parsed<T> {
	try {
		return { ok: true, value: parse() };
	} catch (e) {
		return { ok: false, problem: refusalWords(e, t('input-refused')) };
	}
}

/** Prices a catalogue item at what the customer pays (the vendor's cost in the till). */
export type Pricer = (key: PriceKey, cost: number) => number;

/**
 * The storefront's prices for this customer's tier: the same table the Confirm prices the order with, so a
 * list never shows a price the order then refuses as changed. Call it inside `load` (one database read).
 */
export async function customerPricer(s: Services, userId: number | undefined): Promise<Pricer> {
	if (!s.storefront || userId === undefined) return (_key, cost) => cost;
	const table = await s.storefront.priceTable(userId);
	return (key, cost) => table.price(key, cost).price;
}

/** Asks until the text parses (each refusal is its catalogue text and the question again). */
export async function askTyped<T>(
	conversation: MyConversation,
	hint: string,
	parse: (text: string) => Parsed<T>,
): Promise<{ value: T; c: ConvContext }> {
	for (;;) {
		const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, hint) });
		const p = parse(m.message.text);
		if (p.ok) return { value: p.value, c: m };
		await m.reply(t('input-problem', { problem: p.problem, hint }));
	}
}

/** A catalogue section, mapped to plain JSON inside the external (a failure is the seller-facing text). */
export function load<T>(s: Services, conversation: MyConversation, read: () => Promise<T>): Promise<Loaded<T>> {
	return conversation.external(async (): Promise<Loaded<T>> => {
		try {
			return { ok: true, value: await read() };
		} catch (e) {
			return { ok: false, text: failText(s, t('price-list-failed'), e) };
		}
	});
}

/** A list of buttons under `title` (`perRow` a row, Cancel last); the tapped item and the tap's context. */
type Pick = (
	conversation: MyConversation,
	c: ConvContext,
	title: string,
	items: Item[],
	perRow?: number,
) => Promise<{ c: ConvContext; item: Item; messageId: number }>;

export function choiceSteps(s: Services) {
	const { withButtons } = buttonSteps(s);

	const keyboard = (items: Item[], perRow: number) =>
		grid(
			new InlineKeyboard(),
			items.map((i) => ({ text: i.text, data: cb.pick(i.n) })),
			perRow,
		).text(t('btn-cancel'), cb.x());

	/** Waits for a tap on one of `items` under message `messageId` (Cancel ends the flow). */
	async function tapped(conversation: MyConversation, messageId: number, items: Item[]) {
		for (;;) {
			const { c, tap } = await choose(conversation, messageId, ['pick'], t('flow-use-buttons'));
			const item = items.find((i) => i.n === tap.n);
			if (item) return { c, item, messageId };
		}
	}

	/** A new message with one button per item; the tapped item. */
	const pickOne: Pick = async (conversation, ctx, title, items, perRow = 1) => {
		const m = await withButtons(conversation, ctx, title, keyboard(items, perRow));
		return tapped(conversation, m.message_id, items);
	};

	/** The message of the last tap (`c`) becomes the next list: one message per flow, not one per step. */
	const pickNext: Pick = async (conversation, c, title, items, perRow = 1) => {
		const chatId = c.chatId!;
		const messageId = c.msgId!;
		const kb = keyboard(items, perRow);
		await conversation.external((outside) =>
			outside.api.editMessageText(chatId, messageId, title, { reply_markup: kb }).then(
				() => undefined,
				() => undefined,
			),
		);
		return tapped(conversation, messageId, items);
	};

	return { pickOne, pickNext, askTyped, load: <T>(c: MyConversation, read: () => Promise<T>) => load(s, c, read) };
}
