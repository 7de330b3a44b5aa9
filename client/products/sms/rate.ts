/**
 * The SMS tariff of a site, per route (standard, DND), and where it came from. Sites charge differently
 * (the legacy build ₦1.80 / ₦3.50 DND, amsubnig ₦2.50 / ₦3.50; docs/real-sites.md §4.7) and most publish no
 * rate, so a quote names its source: the site's catalogue, else the credential (client option `smsRates`),
 * else what the first batch's wallet change showed (remembered per site, client/site.ts), else an assumption
 * on the safe side: the highest tariff seen in the family, so a Spend Cap is never passed by a low guess.
 */
import { VtuInvalidInputError } from '../../errors';
import { money, tryParseKobo } from '../../money';
import { learnSiteFact, siteFact } from '../../site';
import type { Money, RateSource, SmsPlan, SmsRates } from '../../types';

/** The highest per-page tariffs seen in the family (amsubnig: ₦2.50 standard, ₦3.50 DND). */
export const ASSUMED_SMS_RATES: SmsRates = {
	perPage: money(250),
	dndPerPage: money(350),
	sources: { perPage: 'assumed', dndPerPage: 'assumed' },
};

/** Client option `smsRates`: naira per page per number, e.g. { perPage: '2.50', dndPerPage: '3.50' }. */
export interface SmsRateOption {
	perPage?: string | number;
	dndPerPage?: string | number;
}

/** A learned rate outside this band is not a tariff (another purchase or a funding moved the wallet). */
const PLAUSIBLE_KOBO = { min: 50, max: 2000 };

type Route = 'perPage' | 'dndPerPage';
const FACT: Record<Route, string> = { perPage: 'sms.rate', dndPerPage: 'sms.rate.dnd' };

/** Parse the option once, at construction: a rate that is not a sane naira amount is refused with what to type. */
export function parseSmsRateOption(o: SmsRateOption | undefined): Partial<Record<Route, Money>> {
	const out: Partial<Record<Route, Money>> = {};
	if (o === undefined || o === null) return out;
	for (const route of ['perPage', 'dndPerPage'] as const) {
		const v = o[route];
		if (v === undefined || v === null || v === '') continue;
		const k = tryParseKobo(v, false); // a third decimal is a typo, not a rate to round
		if (k === null || k < PLAUSIBLE_KOBO.min || k > PLAUSIBLE_KOBO.max) {
			throw new VtuInvalidInputError(
				`smsRates.${route} ${JSON.stringify(v)} is not an SMS rate: give naira per page per number between ₦0.50 and ` +
					`₦20, e.g. "2.50".`,
				{ field: `smsRates.${route}` },
			);
		}
		out[route] = money(k);
	}
	return out;
}

/** The rates a plan or quote uses, each route from the best source there is. */
export function effectiveSmsRates(
	published: SmsRates,
	baseUrl: string,
	configured: Partial<Record<Route, Money>>,
): SmsRates {
	const pick = (route: Route): [Money, RateSource] => {
		if ((published.sources?.[route] ?? 'catalogue') === 'catalogue') return [published[route], 'catalogue'];
		const set = configured[route];
		if (set) return [set, 'credential'];
		const learned = siteFact<number>(baseUrl, FACT[route]);
		if (learned !== undefined) return [money(learned), 'learned'];
		return [ASSUMED_SMS_RATES[route], 'assumed'];
	};
	const [perPage, s1] = pick('perPage');
	const [dndPerPage, s2] = pick('dndPerPage');
	return { perPage, dndPerPage, sources: { perPage: s1, dndPerPage: s2 } };
}

export function rateNote(source: RateSource, rate: Money, dnd: boolean): string {
	const route = dnd ? 'DND' : 'standard';
	switch (source) {
		case 'catalogue':
			return `₦${rate.naira} a page (${route}), the site's published rate`;
		case 'credential':
			return `₦${rate.naira} a page (${route}), the rate set in the credential`;
		case 'learned':
			return (
				`₦${rate.naira} a page (${route}), learned from this site's first batch (wallet change per number and ` +
				`page)`
			);
		case 'assumed':
			return (
				`₦${rate.naira} a page (${route}) assumed: the site publishes no SMS rate and the credential sets none, ` +
				`so the highest tariff seen on these sites is used until the first batch shows the real one`
			);
	}
}

/** Does this route's rate still need learning (nothing better than the assumption)? */
export function needsLearning(rates: SmsRates, dnd: boolean): boolean {
	return rates.sources?.[dnd ? 'dndPerPage' : 'perPage'] === 'assumed';
}

/**
 * Learn the route's rate from one batch's wallet change: `before − after` over numbers × pages. Kept only
 * when it divides exactly into a plausible per-page rate; anything else (another purchase in between, a
 * funding) teaches nothing. Returns the learned kobo per page, or null.
 */
export function learnSmsRate(
	baseUrl: string,
	dnd: boolean,
	units: number,
	beforeKobo: number,
	afterKobo: number,
): number | null {
	const delta = beforeKobo - afterKobo;
	if (units <= 0 || delta <= 0 || delta % units !== 0) return null;
	const rate = delta / units;
	if (rate < PLAUSIBLE_KOBO.min || rate > PLAUSIBLE_KOBO.max) return null;
	learnSiteFact(baseUrl, FACT[dnd ? 'dndPerPage' : 'perPage'], rate);
	return rate;
}

/** The plan priced again at `rates` (after the first batch taught the site's rate). */
export function repriced(plan: SmsPlan, rates: SmsRates): SmsPlan {
	const route = plan.dnd ? 'dndPerPage' : 'perPage';
	const rate = rates[route];
	const rateSource = rates.sources?.[route] ?? 'catalogue';
	return {
		...plan,
		rate,
		rateSource,
		rateNote: rateNote(rateSource, rate, plan.dnd),
		cost: money(plan.recipients.length * plan.pages * rate.kobo),
	};
}

/**
 * A window in which one send's wallet change is read. Two SMS sends of this process on one site at once
 * (a campaign's parallel batches) would each see the other's debit, so a window that overlapped another
 * teaches nothing; nor does one in which any other purchase of this process on the account ran (send.ts: a
 * storefront's other customers' orders move the same wallet, and a whole-naira order over 100 numbers × pages
 * divides into a "rate"). Other buyers of the token still can: the exact-division and plausibility checks of
 * learnSmsRate catch most, and what slips through errs high unless a funding or refund landed in the window.
 */
export interface LearningWindow {
	overlapped: boolean;
	close(): void;
}

const openWindows = new Map<string, Set<LearningWindow>>();

export function openLearningWindow(baseUrl: string): LearningWindow {
	let set = openWindows.get(baseUrl);
	if (!set) openWindows.set(baseUrl, (set = new Set()));
	const w: LearningWindow = {
		overlapped: set.size > 0,
		close: () => {
			set.delete(w);
			if (set.size === 0) openWindows.delete(baseUrl);
		},
	};
	for (const other of set) other.overlapped = true;
	set.add(w);
	return w;
}
