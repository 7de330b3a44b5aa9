/**
 * A feature that is one conversation, from a small declaration: its command and its `go:` place both
 * enter the conversation, whose id is the place (so "Try again" / "Buy again" under an order lead back
 * to it). A product feature is such a feature whose conversation refuses up front what no order could
 * pass, asks the product's own questions, then confirms and buys: the two ends are the same for every
 * product and live here; a product module writes only its questions.
 */
import { Composer } from 'grammy';
import { createConversation } from '@grammyjs/conversations';
import type { ConvContext, MyContext, MyConversation, Services } from '../context';
import type { Place } from '../callback-data';
import { refusedUpFront } from '../flow/checks';
import { choiceSteps } from '../flow/choices';
import { confirmSteps } from '../flow/confirm';
import type { ConfirmMeta, Confirmable, Reask } from '../flow/retry';
import { tryAgainKeyboard } from '../flow/keyboards';
import { safeEdit } from '../flow/ui';
import { accountStep, type AccountCheck, type Holder } from '../flow/validate';
import { t } from '../i18n';
import type { BotPurchaseRequest } from '../vtu';
import type { CommandSpec, Feature, MenuEntry } from './registry';

/** A conversation, from its entry to its last message. */
export type Flow = (conversation: MyConversation, ctx: ConvContext) => Promise<void>;

export interface FlowDeclaration {
	command: CommandSpec;
	/** Its main-menu button (catalogue key of the label, row); none = entered by its command only. */
	menu?: Omit<MenuEntry, 'place'>;
}

export function flowFeature(place: Place, flow: (s: Services) => Flow, d: FlowDeclaration): Feature {
	const enter = (ctx: MyContext) => ctx.conversation.enter(place);
	return {
		name: place,
		commands: [d.command],
		...(d.menu && { menu: { ...d.menu, place } }),
		build: (s) => ({
			flows: new Composer<MyContext>().use(
				createConversation<MyContext, ConvContext>(flow(s), s.conversationOptions(place)),
			),
			commands: { [d.command.name]: enter },
			places: { [place]: enter },
		}),
	};
}

/** What a product's questions end with: the order, and how the confirm step words it. */
export interface Purchase {
	request: BotPurchaseRequest;
	meta: Omit<ConfirmMeta, 'place'>;
	/**
	 * The details "Try again" asks again when the vendor refuses one of them by name (`fields`, e.g. the
	 * phone); the choices made before them are kept. None = such a refusal starts the flow over.
	 */
	reask?: { fields: readonly string[]; ask: (conversation: MyConversation, ctx: ConvContext) => Promise<Purchase> };
}

/** A product's own questions; nothing = the flow ended on the way (after saying why). */
export type Questions = (conversation: MyConversation, ctx: ConvContext) => Promise<Purchase | void>;

/** An order the vendor refused at the purchase itself, naming one of its details (the journal keeps it). */
export interface Refused {
	request: BotPurchaseRequest;
	description: string;
}

/**
 * "Try again" under an order the vendor refused at the purchase itself (after Confirm: nothing was bought),
 * naming one of `fields` (e.g. the phone): that detail asked again, the order's other choices kept; the
 * purchase it makes, or nothing when the flow ended on the way (after saying why).
 */
export interface Redo {
	fields: readonly string[];
	ask(conversation: MyConversation, ctx: ConvContext, refused: Refused): Promise<Purchase | void>;
}

/** The product's place is its request's product ("exam_pin", "recharge_card"): the journal's orders name it. */
export type ProductPlace = Place & BotPurchaseRequest['product'];

/**
 * What the confirm step is given for a product's purchase: the order, its wording and its `reask`: the
 * purchase's own, else the product's Redo for this order (a refused IUC or meter asked again, checked with
 * the site: the storefront says the refusal in its flow, the till under the outcome with "Try again").
 */
export function confirmArgs(p: Purchase, place: ProductPlace, redo?: Redo): Confirmable {
	const confirm = (q: Purchase) => ({ req: q.request, meta: { ...q.meta, place } });
	const again = p.reask;
	if (again)
		return {
			...confirm(p),
			reask: { fields: again.fields, ask: async (c, x) => confirm(await again.ask(c, x)) },
		};
	const refused = { request: p.request, description: p.meta.description };
	const reask: Reask | undefined = redo && {
		fields: redo.fields,
		ask: async (c, x) => {
			const q = await redo.ask(c, x, refused);
			return q && confirmArgs(q, place, redo);
		},
	};
	return { ...confirm(p), reask };
}

export function productFeature(
	place: ProductPlace,
	questions: (s: Services) => Questions,
	d: FlowDeclaration & { redo?: (s: Services) => Redo },
): Feature {
	const feature = flowFeature(
		place,
		(s) => {
			const ask = questions(s);
			const redo = d.redo?.(s);
			const { confirmAndBuy } = confirmSteps(s);
			return async (conversation, ctx) => {
				if (await refusedUpFront(s, conversation, ctx, place)) return;
				const p = await ask(conversation, ctx);
				if (!p) return;
				const { req, meta, reask } = confirmArgs(p, place, redo);
				await confirmAndBuy(conversation, ctx, req, meta, reask);
			};
		},
		d,
	);
	return d.redo ? { ...feature, redo: d.redo } : feature;
}

/** A purchase for someone: "<description> to <target>" (a phone, an account, "3 numbers"). */
export function sentTo(description: string, target: string, recipient = target): Purchase['meta'] {
	return { gets: t('recipient-to', { what: description, to: target }), target, description, recipient };
}

/** PINs, bought for no one in particular: the description says it all. */
export function forNoOne(description: string): Purchase['meta'] {
	return { gets: description, target: null, description, recipient: null };
}

/** Steps of the bill and PIN products that, when they fail, end the flow with "Try again" to its start. */
export function endingSteps(s: Services, place: ProductPlace) {
	const { load } = choiceSteps(s);
	const { askAccount } = accountStep(s);
	const again = () => ({ reply_markup: tryAgainKeyboard(place) });

	/** A catalogue list; a failed read, or an empty list (`none`: the catalogue key that says so), ends the flow. */
	async function loadList<T>(
		conversation: MyConversation,
		ctx: ConvContext,
		none: string,
		read: () => Promise<T[]>,
	): Promise<T[] | undefined> {
		const loaded = await load(conversation, read);
		if (!loaded.ok) return void (await ctx.reply(loaded.text, again()));
		if (!loaded.value.length) return void (await ctx.reply(t(none), again()));
		return loaded.value;
	}

	/**
	 * The tapped message `c` becomes the account question (`chosen` words it around the check's hint); the
	 * holder the site names, or nothing when the site could not be asked (the flow ends).
	 */
	async function askHolder(
		conversation: MyConversation,
		ctx: ConvContext,
		c: ConvContext,
		check: AccountCheck,
		chosen: (prompt: string) => string,
	): Promise<Holder | undefined> {
		await safeEdit(conversation, c, chosen(check.hint));
		const holder = await askAccount(conversation, ctx, check);
		if (!holder.ok) return void (await ctx.reply(holder.text, again()));
		return holder.value;
	}

	/**
	 * A refused number's account asked again (`said`: why, above the check's hint); the holder the site names,
	 * or nothing when the site could not be asked (the flow ends).
	 */
	async function askAgain(
		conversation: MyConversation,
		ctx: ConvContext,
		said: string,
		check: AccountCheck,
	): Promise<Holder | undefined> {
		await ctx.reply(`${said}\n${check.hint}`);
		const holder = await askAccount(conversation, ctx, check);
		if (!holder.ok) return void (await ctx.reply(holder.text, again()));
		return holder.value;
	}

	return { loadList, askHolder, askAgain };
}
