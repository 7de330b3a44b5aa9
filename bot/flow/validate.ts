/**
 * The account check of a bill (cable IUC, electricity meter) before the confirm: the number is read by the
 * client's strict parser, then the site is asked whose it is. A number the site does not know is refused
 * with what to do and asked again (nothing is bought); the customer's name goes into the confirm question.
 */
import type { ConvContext, MyConversation, Services } from '../context';
import { t } from '../i18n';
import { parseDigits, type ValidationResult } from '../vtu';
import { choiceSteps, parsed } from './choices';
import { failText } from './pickers';
import type { Loaded } from './ui';

export interface Holder {
	number: string;
	name: string;
	address: string;
}

export interface AccountCheck {
	/** field name for the client's parser, e.g. 'iuc' */
	field: string;
	/** the number's name, from the catalogue (e.g. "IUC / smart card number") */
	what: string;
	digits: { min: number; max: number };
	/** asked again after a refusal */
	hint: string;
	/** the site's answer for this number */
	validate(number: string): Promise<ValidationResult>;
	/** Why the number is refused: "GOTV does not know IUC 7012345678 …" */
	unknown(number: string): string;
}

export function accountStep(s: Services) {
	const { askTyped } = choiceSteps(s);

	function lookUp(conversation: MyConversation, check: AccountCheck, number: string) {
		return conversation.external(async (): Promise<Loaded<Holder | null>> => {
			try {
				const v = await check.validate(number);
				if (!v.valid || !v.name.trim()) return { ok: true, value: null };
				return { ok: true, value: { number, name: v.name.trim(), address: (v.address ?? '').trim() } };
			} catch (e) {
				return { ok: false, text: failText(s, t('account-check-failed'), e) };
			}
		});
	}

	/** The holder of a typed number the site knows; a failed check (site down) ends the flow with its text. */
	async function askAccount(conversation: MyConversation, ctx: ConvContext, check: AccountCheck) {
		for (;;) {
			// the client's parser judges the number; the refusal is said in the catalogue's words (refusals.ts)
			const { min, max } = check.digits;
			const { value: number, c } = await askTyped(conversation, check.hint, (text) =>
				parsed(() => parseDigits(text, check.field, check.what, min, max)),
			);
			const found = await lookUp(conversation, check, number);
			if (!found.ok) return found;
			if (found.value) return { ok: true as const, value: found.value, c };
			await ctx.reply(check.unknown(number));
		}
	}

	return { askAccount };
}
