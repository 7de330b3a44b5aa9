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
import { confirmSteps, type ConfirmMeta } from '../flow/confirm';
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
}

/** A product's own questions; nothing = the flow ended on the way (after saying why). */
export type Questions = (conversation: MyConversation, ctx: ConvContext) => Promise<Purchase | void>;

/** The product's place is its request's product ("exam_pin", "recharge_card"): the journal's orders name it. */
type ProductPlace = Place & BotPurchaseRequest['product'];

export function productFeature(place: ProductPlace, questions: (s: Services) => Questions, d: FlowDeclaration) {
	return flowFeature(
		place,
		(s) => {
			const ask = questions(s);
			const { confirmAndBuy } = confirmSteps(s);
			return async (conversation, ctx) => {
				if (await refusedUpFront(s, conversation, ctx, place)) return;
				const p = await ask(conversation, ctx);
				if (p) await confirmAndBuy(conversation, ctx, p.request, { ...p.meta, place });
			};
		},
		d,
	);
}

/** A purchase for someone: "<description> to <target>" (a phone, an account, "3 numbers"). */
export function sentTo(description: string, target: string, recipient = target): Purchase['meta'] {
	return { gets: t('recipient-to', { what: description, to: target }), target, description, recipient };
}

/** PINs, bought for no one in particular: the description says it all. */
export function forNoOne(description: string): Purchase['meta'] {
	return { gets: description, target: null, description, recipient: null };
}
