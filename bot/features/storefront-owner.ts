/**
 * The owner's hand on the storefront's ledger (admins, BOT_ADMIN_IDS): `/credit <telegram id> <naira> <reason>`
 * and `/debit …` write a manual credit or debit with its reason (store/ledger.ts adjust). The adjustment's
 * reference is the command message itself, so a re-delivered update writes nothing twice. The customer is
 * told. A debit never takes a wallet below zero.
 */
import { VtuError } from '../../client/errors';
import type { Services } from '../context';
import { t } from '../i18n';
import { refusalWords } from '../refusals';
import { naira } from '../orders';
import { parseNaira } from '../vtu';
import type { CommandHandler, Feature } from './registry';

/** `problem`: what was wrong with the amount, said before the usage. */
type Parsed = { ok: true; customer: string; kobo: number; reason: string } | { ok: false; problem?: string };

/** `<telegram id> <naira> <reason of 3+ characters>` */
function parseAdjust(text: string): Parsed {
	const m = /^\s*(\d{1,15})\s+(\S+)\s+(.{3,200})$/s.exec(text);
	if (!m) return { ok: false };
	try {
		const kobo = parseNaira(m[2], 'amount');
		return kobo > 0 ? { ok: true, customer: m[1], kobo, reason: m[3].trim() } : { ok: false };
	} catch (e) {
		return { ok: false, problem: refusalWords(e, t('input-amount')) };
	}
}

/** The usage, after what was wrong if that is known. */
const usageText = (usage: string, problem?: string) =>
	problem ? t('input-problem', { problem, hint: t(usage) }) : t(usage);

function adjustCommand(s: Services, sign: 1 | -1): CommandHandler {
	const usage = sign > 0 ? 'sf-credit-usage' : 'sf-debit-usage';
	return async (ctx) => {
		if (!s.access.isAdmin(ctx.from?.id)) return ctx.reply(t('admin-only'));
		const p = parseAdjust(ctx.match);
		if (!p.ok) return ctx.reply(usageText(usage, p.problem));
		const side = s.storefront!;
		const reference = `tg-${ctx.chat.id}-${ctx.msg.message_id}`;
		let written: boolean;
		try {
			await side.books.createCustomer(p.customer);
			written = await side.books.adjust(p.customer, sign * p.kobo, p.reason, reference);
		} catch (e) {
			if (e instanceof VtuError && e.code === 'insufficient_balance') {
				const w = await side.wallet(Number(p.customer));
				return ctx.reply(t('sf-debit-too-much', { customer: p.customer, available: naira(w.available) }));
			}
			if (e instanceof VtuError && e.code === 'invalid_input')
				return ctx.reply(usageText(usage, refusalWords(e, t('input-refused'))));
			throw e;
		}
		const w = await side.wallet(Number(p.customer));
		const vars = { customer: p.customer, amount: naira(p.kobo), reason: p.reason, balance: naira(w.available) };
		if (!written) return ctx.reply(t('sf-adjust-already', vars));
		s.logger.info('manual wallet adjustment', { customer: p.customer, kobo: sign * p.kobo, by: ctx.from!.id });
		await side.tellOnce(`adjust:${reference}`, p.customer, t(sign > 0 ? 'sf-credited-you' : 'sf-debited-you', vars));
		return ctx.reply(t(sign > 0 ? 'sf-credited' : 'sf-debited', vars));
	};
}

export const storefrontOwner: Feature = {
	name: 'storefront-owner',
	commands: [
		{ name: 'credit', description: 'cmd-credit', admin: true },
		{ name: 'debit', description: 'cmd-debit', admin: true },
	],
	build: (s) => ({ commands: { credit: adjustCommand(s, 1), debit: adjustCommand(s, -1) } }),
};
