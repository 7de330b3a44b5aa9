/**
 * A typed value refused, in the catalogue's words. The client's parsers (client/input.ts, client/money.ts) and
 * the store refuse a value with an `invalid_input` error whose message is written for developers and n8n
 * builders; the bot never shows that message. It names the case by the error's `field` and its structured
 * `details` (limits, the kind of problem) and says it with a catalogue text; a case it cannot name gets the
 * caller's fallback, a catalogue text that says what to type. Every entry point that shows a refusal calls
 * `refusalWords`: the flows' typed answers, the checks before the confirm, the storefront's offer and order,
 * and the owner's commands.
 */
import { VtuError } from '../client/errors';
import { t } from './i18n';
import { naira, userError } from './orders';

type Details = Record<string, unknown>;

const num = (d: Details, k: string): number | undefined => (typeof d[k] === 'number' ? (d[k] as number) : undefined);
const str = (d: Details, k: string): string => (typeof d[k] === 'string' ? (d[k] as string) : '');

/** An amount refused by the client's parser of naira, or by a product's bounds. */
function amountWords(d: Details): string {
	const example = str(d, 'example');
	if (d.problem === 'not_plain' && example) return t('input-amount-plain', { example });
	if (d.problem === 'decimals' && example) return t('input-amount-decimals', { example });
	if (d.problem === 'negative') return t('input-amount-negative');
	if (d.problem === 'too_large') return t('input-amount-too-large');
	const min = num(d, 'minKobo');
	if (min !== undefined) return t('input-amount-below', { min: naira(min) });
	const max = num(d, 'maxKobo');
	if (max !== undefined) return t('input-amount-above', { max: naira(max) });
	return t('input-amount');
}

/** Why a number is not a Nigerian mobile number (the client's PhoneProblem), in a sentence. */
export function phoneWords(problem: unknown, prefix = ''): string {
	if (problem === 'blank') return t('phone-problem-blank');
	if (problem === 'letters') return t('phone-problem-letters');
	if (problem === 'wrong length') return t('phone-problem-length');
	if (problem === 'not a Nigerian mobile prefix' && prefix) return t('phone-problem-prefix', { prefix });
	return t('phone-problem-other');
}

/** An SMS text refused by the client's rule. */
function messageWords(d: Details): string | null {
	if (d.problem === 'empty') return t('sms-message-empty');
	if (d.problem === 'invisible') return t('sms-message-invisible');
	const n = num(d, 'length');
	const max = num(d, 'max');
	if (d.problem === 'too_long' && n !== undefined && max !== undefined)
		return t('sms-message-too-long', { n, max, over: n - max });
	return null;
}

/** A number of digits (IUC, meter) of `what`, refused with its bounds. */
const digitsWords = (what: string) => (d: Details) => {
	const min = num(d, 'min');
	const max = num(d, 'max');
	return min !== undefined && max !== undefined ? t('account-digits', { what: t(what), min, max }) : null;
};

/** The words for each field the bot can show, from the error's details; null: not named (the fallback). */
const BY_FIELD: Record<string, (d: Details) => string | null> = {
	amount: amountWords,
	quantity: (d) => {
		const min = num(d, 'min');
		const max = num(d, 'max');
		return min !== undefined && max !== undefined ? t('input-quantity', { min, max }) : null;
	},
	iuc: digitsWords('cable-iuc-what'),
	meter: digitsWords('meter-what'),
	phone: (d) => t('phone-invalid-why', { problem: phoneWords(d.problem, str(d, 'prefix')) }),
	sender: (d) => {
		const max = num(d, 'max');
		return max === undefined ? null : t('sms-sender-invalid', { max });
	},
	message: messageWords,
	recipients: () => t('sms-no-numbers'),
	plan: () => t('input-plan'),
	// the owner's commands (store/report.ts, store/prices.ts, store/ledger.ts)
	date: (d) => (str(d, 'day') ? t('report-date-invalid', { day: str(d, 'day') }) : null),
	percent: () => t('setprice-percent-invalid'),
	fixed: () => t('setprice-fixed-invalid'),
	tier: () => t('setprice-tier-invalid'),
	reason: () => t('sf-adjust-reason'),
};

/**
 * The text for a refused value: a client or store `invalid_input` by its field and details; the vendor's own
 * refusal (it answered: `httpStatus`, `serverMessage`) as the seller words it (orders.ts userError); anything
 * else, or a case not named here, is `fallback` (a catalogue text saying what to type).
 */
export function refusalWords(e: unknown, fallback: string): string {
	if (!(e instanceof VtuError) || e.code !== 'invalid_input') return fallback;
	if (e.httpStatus !== undefined || e.serverMessage !== undefined) return userError(e.code, e.field);
	const words = e.field && Object.hasOwn(BY_FIELD, e.field) ? BY_FIELD[e.field](e.details ?? {}) : null;
	return words ?? fallback;
}
