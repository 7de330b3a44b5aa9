/**
 * What the confirm step is given (the order and how to word it) and what "Try again" does after a
 * refusal before anything was bought; shared by the till's confirm (confirm.ts) and the storefront's.
 */
import { InlineKeyboard } from 'grammy';
import type { ConvContext, MyConversation, Services } from '../context';
import { t } from '../i18n';
import type { BotPurchaseRequest } from '../vtu';
import { cb } from '../callback-data';
import { pickers } from './pickers';
import { choose, safeEdit } from './ui';
import type { Place } from './keyboards';

export interface ConfirmMeta {
	/** What the customer gets, e.g. "MTN data 1GB SME (30 days) to 0803 123 4567 (MTN)". */
	gets: string;
	/** Who gets it, for the confirm question: "0803 123 4567 (MTN)", "3 numbers". */
	target: string | null;
	/** Journal description ("MTN data 1GB SME (30 days)") and recipient (phone, or "3 numbers"). */
	description: string;
	recipient: string | null;
	/** Where "Try again" leads when the purchase is refused before anything was bought. */
	place: Place;
	/** Why the price differs from what the customer gets (airtime discount). */
	payNote?: string;
}

/** A purchase for the confirm step: the order, its wording, and what "Try again" asks again of it. */
export interface Confirmable {
	req: BotPurchaseRequest;
	meta: ConfirmMeta;
	/** None: the detail asked again keeps the reask it was asked with. */
	reask?: Reask;
}

/**
 * Asks again a detail the vendor refused by name (one of `fields`, e.g. the phone); returns the purchase
 * with it, or nothing when the flow ended on the way (after saying why: the site could not check it).
 */
export interface Reask {
	fields: readonly string[];
	ask(conversation: MyConversation, ctx: ConvContext): Promise<Confirmable | void>;
}

/**
 * What "Try again" does after a refusal before anything was bought: the same choices checked again (the
 * wallet, a limit, the float: nothing the customer typed was wrong), one detail asked again (the vendor
 * named it), or the flow from its start (a detail was refused that this flow cannot ask alone).
 */
export function retryKind(input: { field?: string } | undefined, reask?: Reask): 'same' | 'reask' | 'restart' {
	if (!input) return 'same';
	return input.field !== undefined && reask?.fields.includes(input.field) ? 'reask' : 'restart';
}

/**
 * A refusal before anything was bought, said inside the flow (a new message, or the tapped message `on`
 * edited): "Try again" (returns) resumes the flow with the choices made so far; Cancel ends it.
 */
export async function retryInFlow(
	s: Services,
	conversation: MyConversation,
	ctx: ConvContext,
	text: string,
	on?: ConvContext,
): Promise<void> {
	const kb = new InlineKeyboard().text(t('btn-try-again'), cb.repeat(true)).text(t('btn-cancel'), cb.x());
	let messageId: number;
	if (on) {
		await safeEdit(conversation, on, text, kb);
		messageId = on.msgId!;
	} else messageId = (await pickers(s).withButtons(conversation, ctx, text, kb)).message_id;
	const { c } = await choose(conversation, messageId, ['repeat'], t('flow-use-buttons'));
	await safeEdit(conversation, c, text); // its buttons are used
}

/** The confirm step: checks, the Confirm question, then the purchase (till) or the order (storefront). */
export type Confirm = (
	conversation: MyConversation,
	ctx: ConvContext,
	req: BotPurchaseRequest,
	meta: ConfirmMeta,
	reask?: Reask,
) => Promise<void>;
