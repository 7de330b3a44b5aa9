/**
 * Every button's callback data, typed and built in one place. A button carries `<kind>:<value>` (or
 * the flow's Cancel `x`), at most 64 bytes (Bot API). Data comes from the client: `decode` checks it
 * field by field and answers null for anything it did not build, so a handler never reads a raw string.
 * Nothing here is trusted for money: an order id only names a journal row, which is checked again.
 */
import type { Composer, Context, Filter } from 'grammy';

/** Where a `go:` button leads (a feature of the registry, or the menu / help). */
export const PLACES = [
	'menu',
	'data',
	'airtime',
	'sms',
	'balance',
	'history',
	'help',
	'setpin',
	'fund',
	// named after their product, so "Try again" / "Buy again" under an order leads back to its flow
	'cable',
	'electricity',
	'exam_pin',
	'recharge_card',
	'prices',
] as const;
export type Place = (typeof PLACES)[number];

/** Kinds that carry an order id (it only names a journal row, checked again by the handler). */
const ORDER_KINDS = ['again', 'order', 'confirm', 'cancel'] as const;
/** Yes / no answers; `pay` is the storefront's pay from the wallet (the flow waits for it; Cancel is its `x`). */
const YES_NO_KINDS = ['repeat', 'ported', 'pay'] as const;
/**
 * Kinds that carry a number: a network, a plan, an amount in kobo, and `pick`, one item of a list (cable
 * provider or package, disco, meter type, exam, card value, quantity).
 */
const NUMBER_KINDS = ['net', 'plan', 'amt', 'pick'] as const;

/** Every kind of a list carries the same fields. */
type Each<L extends readonly string[], F> = { [K in L[number]]: F };

/** What each kind of button carries: the lists above decode with the same fields the types name. */
type Fields = { go: { place: Place }; x: Record<never, never>; lang: { code: string } } & Each<
	typeof ORDER_KINDS,
	{ orderId: string }
> &
	Each<typeof YES_NO_KINDS, { yes: boolean }> &
	Each<typeof NUMBER_KINDS, { n: number }>;

export type CallbackKind = keyof Fields;
/** The callback of one kind: `Of<'net'>` is `{ kind: 'net'; n: number }` (a union for a union of kinds). */
export type Of<K extends CallbackKind> = K extends CallbackKind ? { kind: K } & Fields[K] : never;
export type Callback = Of<CallbackKind>;

const isOne = (kinds: readonly string[], kind: string) => kinds.includes(kind);
/** Journal ids are base64url (Journal.newId); anything else is not ours. */
const ID_CHARS = new Set('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');

const isOrderId = (v: string) => v.length > 0 && v.length <= 40 && [...v].every((ch) => ID_CHARS.has(ch));
const isDigits = (v: string) => v.length > 0 && v.length <= 15 && [...v].every((ch) => ch >= '0' && ch <= '9');

export function encode(c: Callback): string {
	switch (c.kind) {
		case 'x':
			return 'x';
		case 'go':
			return `go:${c.place}`;
		case 'lang':
			return `lang:${c.code}`;
		case 'repeat':
		case 'ported':
		case 'pay':
			return `${c.kind}:${c.yes ? 'y' : 'n'}`;
		case 'net':
		case 'plan':
		case 'amt':
		case 'pick':
			return `${c.kind}:${c.n}`;
		case 'again':
		case 'order':
		case 'confirm':
		case 'cancel':
			return `${c.kind}:${c.orderId}`;
	}
}

export function decode(data: string | undefined): Callback | null {
	if (data === undefined) return null;
	if (data === 'x') return { kind: 'x' };
	const at = data.indexOf(':');
	if (at < 0) return null;
	const kind = data.slice(0, at);
	const value = data.slice(at + 1);
	if (kind === 'lang') return /^[a-z]{2,3}(-[A-Za-z0-9]{1,8})?$/.test(value) ? { kind, code: value } : null;
	if (kind === 'go') return (PLACES as readonly string[]).includes(value) ? { kind, place: value as Place } : null;
	if (isOne(ORDER_KINDS, kind)) return isOrderId(value) ? ({ kind, orderId: value } as Of<'order'>) : null;
	if (isOne(YES_NO_KINDS, kind))
		return value === 'y' || value === 'n' ? ({ kind, yes: value === 'y' } as Of<'repeat'>) : null;
	if (isOne(NUMBER_KINDS, kind)) return isDigits(value) ? ({ kind, n: Number(value) } as Of<'net'>) : null;
	return null;
}

/** The decoded callback when it is one of `kinds`, else null. */
export function decodeAs<K extends CallbackKind>(data: string | undefined, kinds: readonly K[]): Of<K> | null {
	const c = decode(data);
	return c && (kinds as readonly CallbackKind[]).includes(c.kind) ? (c as Of<K>) : null;
}

/** Builders for the buttons: `cb.confirm(id)`, `cb.go('data')`, `cb.net(1)`… */
export const cb = {
	go: (place: Place) => encode({ kind: 'go', place }),
	/** A locale of /language (a file name: checked against the catalogue again by the handler). */
	lang: (code: string) => encode({ kind: 'lang', code }),
	again: (orderId: string) => encode({ kind: 'again', orderId }),
	order: (orderId: string) => encode({ kind: 'order', orderId }),
	confirm: (orderId: string) => encode({ kind: 'confirm', orderId }),
	cancel: (orderId: string) => encode({ kind: 'cancel', orderId }),
	repeat: (yes: boolean) => encode({ kind: 'repeat', yes }),
	ported: (yes: boolean) => encode({ kind: 'ported', yes }),
	pay: (yes: boolean) => encode({ kind: 'pay', yes }),
	net: (id: number) => encode({ kind: 'net', n: id }),
	plan: (id: number) => encode({ kind: 'plan', n: id }),
	amt: (kobo: number) => encode({ kind: 'amt', n: kobo }),
	pick: (n: number) => encode({ kind: 'pick', n }),
	/** The flow's Cancel. */
	x: () => encode({ kind: 'x' }),
};

/**
 * Handle taps whose data decodes as one of `kinds`; any other tap goes on down the middleware (and ends
 * at the unhandled feature's "This button has expired").
 */
export function onCallback<C extends Context, K extends CallbackKind>(
	composer: Composer<C>,
	kinds: K[],
	handler: (ctx: Filter<C, 'callback_query:data'>, c: Of<K>) => Promise<unknown>,
): void {
	composer.on('callback_query:data', async (ctx, next) => {
		const c = decodeAs(ctx.callbackQuery.data, kinds);
		if (c) await handler(ctx, c);
		else await next();
	});
}
