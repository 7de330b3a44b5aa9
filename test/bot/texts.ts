/**
 * Expected bot texts, built from the message catalogue (bot/locales/en.ftl) instead of copied into
 * the tests: rewording a message changes the catalogue only.
 *
 * `text(key, vars)` is the exact text. `pattern(key, vars)` is a RegExp matching it where a variable
 * may be a RegExp (any price: /₦[\d,.]+/); `lines(...)` joins patterns of consecutive lines.
 */
import { t, type TextVars } from '../../bot/i18n';

export const text = t;

type PatternVars = Record<string, string | number | RegExp>;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The source of a pattern for one catalogue message (no anchors). */
export function source(key: string, vars: PatternVars = {}): string {
	const marks: Record<string, string> = {};
	const plain: TextVars = {};
	Object.entries(vars).forEach(([k, v], i) => {
		if (v instanceof RegExp) {
			plain[k] = `\u0001${i}\u0002`;
			marks[plain[k] as string] = v.source;
		} else plain[k] = v;
	});
	let src = escape(t(key, plain));
	for (const [mark, re] of Object.entries(marks)) src = src.split(escape(mark)).join(`(?:${re})`);
	return src;
}

/** A message from the catalogue, at the start of the text. */
export function pattern(key: string, vars: PatternVars = {}): RegExp {
	return new RegExp(`^${source(key, vars)}`);
}

/** Consecutive lines, each a catalogue message ([key, vars]), from the start of the text. */
export function lines(...parts: [string, PatternVars?][]): RegExp {
	return new RegExp(`^${parts.map(([k, v]) => source(k, v)).join('\\n')}`);
}

/** The confirm question of a purchase, as the bot words it (confirm.ts confirmText). */
export function confirmText(o: {
	price: string;
	target?: string;
	gets: string;
	note?: string;
	walletAfter?: string;
	/** the order's reference (the Confirm button's order id) */
	ref?: string;
}): string {
	return [
		o.target
			? t('confirm-question-for', { price: o.price, target: o.target })
			: t('confirm-question', { price: o.price }),
		t('confirm-gets', { gets: o.gets }),
		o.note ? t('confirm-pay-note', { price: o.price, note: o.note }) : t('confirm-pay', { price: o.price }),
		...(o.walletAfter ? [t('confirm-wallet-after', { balance: o.walletAfter })] : []),
		...(o.ref ? [t('outcome-reference', { ref: o.ref })] : []),
	].join('\n');
}

/** The confirm question's first lines as a pattern (price may be a RegExp). */
export function confirmPattern(o: { price: string | RegExp; target?: string | RegExp; gets: string | RegExp }): RegExp {
	const q: [string, PatternVars] = o.target
		? ['confirm-question-for', { price: o.price, target: o.target }]
		: ['confirm-question', { price: o.price }];
	return lines(q, ['confirm-gets', { gets: o.gets }]);
}

/** "MTN data 1GB SME (30 days) to 0803 123 4567": what + recipient, as outcomes name it. */
export const what = (description: string, to: string) => t('recipient-to', { what: description, to });

const ICON: Record<string, string> = { successful: '✅', not_charged: '❌', failed: '↩️', processing: '⏳' };
const LABEL: Record<string, () => string> = {
	successful: () => t('state-successful'),
	not_charged: () => t('state-failed'),
	processing: () => t('state-pending'),
};

/** The first line of an outcome message ("✅ Delivered: MTN data … to 0803 123 4567."), as a pattern source. */
export function outcomeHead(state: 'successful' | 'not_charged' | 'processing', what: string | RegExp): string {
	return source('outcome-head', { icon: ICON[state], label: LABEL[state](), what });
}

/** A whole "not charged" outcome (head, reason, "You were not charged."), as a pattern source. */
export function notChargedOutcome(what: string | RegExp): string {
	return `${outcomeHead('not_charged', what)}\\n[^]*${source('outcome-not-charged-note')}$`;
}

/** The "being checked" outcome of an unclear order, as a pattern source. */
export function unknownOutcome(what: string | RegExp): string {
	return source('outcome-unknown', { what, order: /\S+/ });
}

/** A follower notice about an order interrupted by a restart, then the outcome `body` (a pattern source). */
export const afterRestart = (body: string): RegExp => new RegExp(`^${source('notice-restart')}\\n${body}`);
/** A follower notice "Update on order <ref>:" then the outcome `body`. */
export const updateOn = (ref: string | RegExp, body: string): RegExp =>
	new RegExp(`^${source('notice-update', { ref })}\\n${body}`);
/** Did any of these texts tell the user they were not charged? */
export const saysNotCharged = (texts: string[]): boolean =>
	texts.some((x) => x.includes(t('outcome-not-charged-note')) || x.includes(t('state-failed')));

/** Any naira amount as the bot writes it ("₦1,312.50"). */
export const NAIRA = /₦[\d,]+\.\d\d/;

/** The settled orders' lines of a storefront /history (global: count them with `match`). */
export const settledHistoryLines = (): RegExp =>
	new RegExp(
		source('sf-history-line', {
			n: /\d+/,
			date: /.+/,
			what: /.+/,
			price: NAIRA,
			state: t('sf-state-settled'),
			ref: /\S+/,
		}),
		'g',
	);

/** A line of what a delivered order handed over (the token, its units, a PIN, a card). */
const HANDED = new RegExp(
	`^(${['delivered-token', 'delivered-units', 'delivered-pin', 'delivered-card-serial', 'delivered-card']
		.map((k) => source(k, { token: /.+/, units: /.+/, n: /\d+/, pin: /\S+/, serial: /.+/ }))
		.join('|')})$`,
);

/**
 * A delivered order's message split: what it handed over (the lines right after its first, the token first)
 * and the message without them.
 */
export function handedOver(message: string): { handed: string[]; rest: string } {
	const [head, ...tail] = message.split('\n');
	const n = tail.findIndex((l) => !HANDED.test(l));
	const handed = n === -1 ? tail : tail.slice(0, n);
	return { handed, rest: [head, ...tail.slice(handed.length)].join('\n') };
}
