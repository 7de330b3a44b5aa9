/**
 * Keyboards every feature shares: the main menu, and the next step under a final message
 * (🔁 Buy again / Try again / 🏠 Menu), so no message is a dead end.
 *
 * Callback data (callback-data.ts): `go` opens a feature, `again` starts a new confirm for the
 * same purchase, `order` shows one order (history.ts). They are handled in menu.ts, repeat.ts and
 * history.ts when no flow is waiting for a tap.
 */
import { InlineKeyboard } from 'grammy';
import type { OrderView } from '../orders';
import { cb, type Place } from '../callback-data';
import { menuRows, type Feature } from '../features/registry';
import { t } from '../i18n';

export type { Place } from '../callback-data';

/** The main menu: the menu entries of this bot's features, row by row. */
export function mainMenuKeyboard(s: { features: readonly Feature[] }): InlineKeyboard {
	const kb = new InlineKeyboard();
	menuRows(s.features).forEach((row, i) => {
		if (i > 0) kb.row();
		for (const e of row) kb.text(t(e.label), cb.go(e.place));
	});
	return kb;
}

export function menuButton(): InlineKeyboard {
	return new InlineKeyboard().text(t('btn-menu'), cb.go('menu'));
}

/** After a refusal before anything was bought: start that flow again, or go to the menu. */
export function tryAgainKeyboard(place: Place, label = t('btn-try-again')): InlineKeyboard {
	return new InlineKeyboard().text(label, cb.go(place)).text(t('btn-menu'), cb.go('menu'));
}

/**
 * Under an order's outcome: buy the same again (or try again when it was not charged), the menu,
 * and with `details` (a notice that arrives later, away from the flow) the order's Details too.
 */
export function nextStepKeyboard(o: Pick<OrderView, 'id' | 'state'>, opts: { details?: boolean } = {}): InlineKeyboard {
	const kb = new InlineKeyboard();
	let details = opts.details ?? false;
	// A pending order has no "Buy again": it may still deliver, and a second one would pay twice.
	if (o.state === 'successful') kb.text(t('btn-buy-again'), cb.again(o.id));
	else if (o.state === 'not_charged' || o.state === 'failed' || o.state === 'cancelled' || o.state === 'expired')
		kb.text(t('btn-try-again'), cb.again(o.id));
	else details = true;
	if (details) kb.text(t('btn-details'), cb.order(o.id));
	return kb.text(t('btn-menu'), cb.go('menu'));
}
