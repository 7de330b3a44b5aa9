/**
 * The steps before the confirm that data and airtime share: the catalogue, the network picker
 * and the phone question (with the ported-number check). Conversations v2 replay the flow from
 * the top on every update, so every client or database call is inside `conversation.external`
 * and returns plain JSON; Bot API calls through `ctx` are recorded and not repeated on replay.
 */
import { InlineKeyboard } from 'grammy';
import type { ConvContext, MyConversation, Services } from '../context';
import { naira, userError } from '../orders';
import { errorCode, formatPhone, parseMobile, type DataPlan } from '../vtu';
import { choose, grid, nudge, safeEdit, type Loaded } from './ui';
import { cb } from '../callback-data';
import { t } from '../i18n';
import { dataPriceKey, type PriceTable } from '../../store/prices';
import { noteVendorRefusal } from '../owner-alerts';
import { refusalWords } from '../refusals';
import { parsed } from './choices';

export interface NetView {
	id: number;
	name: string;
	planCount: number;
}

export interface PlanView {
	id: number;
	/** Button text with the price, e.g. "1GB SME ₦250.00 (30 days)". */
	label: string;
	/** Without the price, for the order's description: "1GB SME (30 days)". */
	name: string;
}

/**
 * "Could not load the catalogue: <seller reason>"; the client's own message goes to the log only (a refused
 * value is said by refusalWords).
 */
export function failText(s: Services, what: string, e: unknown): string {
	const code = errorCode(e) ?? null;
	s.logger.warn(what, { code, err: e instanceof Error ? e.message : String(e) });
	// the vendor refusing the token: the owner is told (once an hour, across instances)
	if (code === 'auth') void noteVendorRefusal(s, e).catch(() => undefined);
	const reason = code === 'invalid_input' ? refusalWords(e, t('input-refused')) : userError(code);
	return t('err-with-reason', { what, reason });
}

export function phonePrompt(networkName: string): string {
	return t('phone-prompt', { network: networkName });
}

/** Flow messages with buttons that /cancel can take away. */
export function buttonSteps(s: Services) {
	/**
	 * Send a message with flow buttons and remember it, so /cancel can take the buttons away. Sent
	 * from `conversation.external` (see safeEdit): the state keeps the message id only.
	 */
	async function withButtons(
		conversation: MyConversation,
		ctx: ConvContext,
		text: string,
		kb: InlineKeyboard,
	): Promise<{ message_id: number }> {
		const chatId = ctx.chatId!;
		return conversation.external(async (outside) => {
			const m = await outside.api.sendMessage(chatId, text, { reply_markup: kb });
			s.keyboards.track(chatId, m.message_id);
			return { message_id: m.message_id };
		});
	}

	return { withButtons };
}

/** The network list and the network picker. */
export function networkSteps(s: Services) {
	const { withButtons } = buttonSteps(s);

	/**
	 * Networks only (with how many plans each has): everything an external returns is kept in the
	 * conversation's state and parsed again on every update, so the plans are loaded separately,
	 * for the chosen network only (the client caches the catalogue, so this is no extra request).
	 */
	async function loadNetworks(conversation: MyConversation): Promise<Loaded<NetView[]>> {
		return conversation.external(async (): Promise<Loaded<NetView[]>> => {
			try {
				const nets = await s.client.catalog.networks();
				return {
					ok: true,
					value: nets.map((n) => ({
						id: n.id,
						name: String(n.name),
						planCount: n.plans.filter((p) => p.available).length,
					})),
				};
			} catch (e) {
				return { ok: false, text: failText(s, t('price-list-failed'), e) };
			}
		});
	}

	async function pickNetwork(conversation: MyConversation, ctx: ConvContext, title: string, nets: NetView[]) {
		const kb = grid(
			new InlineKeyboard(),
			nets.map((n) => ({ text: n.name, data: cb.net(n.id) })),
			2,
		).text(t('btn-cancel'), cb.x());
		const m = await withButtons(conversation, ctx, title, kb);
		for (;;) {
			const { c, tap } = await choose(conversation, m.message_id, ['net'], t('network-use-buttons'));
			const net = nets.find((n) => n.id === tap.n);
			if (net) return { c, net, messageId: m.message_id };
		}
	}

	return { loadNetworks, pickNetwork };
}

/** A network's data plans: the list (edited into the tapped message) and the chosen plan. */
export function planSteps(s: Services) {
	/** The plan's button: the seller's price for this customer in storefront mode, the vendor's in the till. */
	const labelOf = (p: DataPlan, prices?: PriceTable): string => {
		if (!prices) return p.label;
		const price = naira(prices.price(dataPriceKey(p), p.price.kobo).price);
		return `${p.size} ${p.kind} ${price}${p.validity ? ` (${p.validity})` : ''}`;
	};

	async function availablePlans(networkId: number, userId?: number): Promise<PlanView[]> {
		const net = (await s.client.catalog.networks()).find((n) => n.id === networkId);
		const prices = s.storefront && userId !== undefined ? await s.storefront.priceTable(userId) : undefined;
		return (net?.plans ?? [])
			.filter((p) => p.available)
			.map((p) => ({
				id: p.id,
				label: labelOf(p, prices),
				name: `${p.size} ${p.kind}${p.validity ? ` (${p.validity})` : ''}`,
			}));
	}

	/**
	 * The tapped message `c` becomes the plan list of the network. The list stays out of the
	 * conversation's state (a ~1 KB external result, cloned and parsed again at every later step):
	 * the chosen plan is looked up again with `loadPlan` (the client caches the catalogue).
	 */
	async function showPlans(
		conversation: MyConversation,
		c: ConvContext,
		net: { id: number; name: string },
	): Promise<Loaded<true>> {
		const chatId = c.chatId!;
		const messageId = c.msgId!;
		return conversation.external(async (outside): Promise<Loaded<true>> => {
			let plans: PlanView[];
			try {
				plans = await availablePlans(net.id, c.from?.id);
			} catch (e) {
				return { ok: false, text: failText(s, t('price-list-failed'), e) };
			}
			const kb = grid(
				new InlineKeyboard(),
				plans.map((p) => ({ text: p.label, data: cb.plan(p.id) })),
				1,
			).text(t('btn-cancel'), cb.x());
			await outside.api
				.editMessageText(chatId, messageId, t('data-choose-plan', { network: net.name }), { reply_markup: kb })
				.catch(() => undefined);
			return { ok: true, value: true };
		});
	}

	/** The plan tapped in the list `showPlans` sent. */
	async function loadPlan(
		conversation: MyConversation,
		networkId: number,
		planId: number,
		userId?: number,
	): Promise<Loaded<PlanView>> {
		return conversation.external(async (): Promise<Loaded<PlanView>> => {
			try {
				const plan = (await availablePlans(networkId, userId)).find((p) => p.id === planId);
				return plan ? { ok: true, value: plan } : { ok: false, text: t('data-plan-gone') };
			} catch (e) {
				return { ok: false, text: failText(s, t('price-list-failed'), e) };
			}
		});
	}

	return { showPlans, loadPlan };
}

/** The phone question, with the ported-number check. */
export function phoneSteps(s: Services) {
	const { withButtons } = buttonSteps(s);

	/** Ask for the number, unless the caller already asked in a message it edited (`asked`: one Bot API call less). */
	async function askPhone(
		conversation: MyConversation,
		ctx: ConvContext,
		networkName: string,
		opts: { asked?: boolean } = {},
	): Promise<{ phone: string; ported: boolean }> {
		if (!opts.asked) await ctx.reply(phonePrompt(networkName));
		for (;;) {
			const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, t('phone-as-text')) });
			// the client's rule (the same for the nodes and SMS): a known mobile prefix, whatever "ported" would say
			const number = parsed(() => parseMobile(m.message.text));
			if (!number.ok) {
				await m.reply(number.problem);
				continue;
			}
			const { phone, network: detected } = number.value;
			if (detected.toUpperCase() === networkName.toUpperCase()) return { phone, ported: false };
			const kb = new InlineKeyboard()
				.text(t('ported-yes', { network: networkName }), cb.ported(true))
				.row()
				.text(t('ported-no'), cb.ported(false))
				.row()
				.text(t('btn-cancel'), cb.x());
			const q = await withButtons(
				conversation,
				ctx,
				t('ported-question', { phone: formatPhone(phone), detected, network: networkName }),
				kb,
			);
			const { c, tap } = await choose(conversation, q.message_id, ['ported'], t('flow-use-buttons'));
			if (tap.yes) {
				await safeEdit(conversation, c, t('ported-confirmed', { phone: formatPhone(phone), network: networkName }));
				return { phone, ported: true };
			}
			await safeEdit(conversation, c, t('ported-another'));
		}
	}

	return { askPhone };
}

/** Every shared step before the confirm, for the features that use several. */
export function pickers(s: Services) {
	return { ...buttonSteps(s), ...networkSteps(s), ...planSteps(s), ...phoneSteps(s) };
}
