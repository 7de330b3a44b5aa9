/**
 * The registry: every feature of the bot, in the order of the command list and /help. createBot,
 * setMyCommands, /help, the main menu and the `go:` buttons all read this list.
 */
import { cancel } from '../middlewares/flow-commands';
import { admin } from './admin';
import { airtime } from './airtime';
import { balance } from './balance';
import { cable } from './cable';
import { electricity } from './electricity';
import { examPins } from './exam-pins';
import { data } from './data';
import { history } from './history';
import { language } from './language';
import { help, menu } from './menu';
import { ownerDesk, support } from './owner-desk';
import { ownerPrices } from './owner-prices';
import { pin } from './pin';
import { rechargeCards } from './recharge-cards';
import type { BotMode, Feature } from './registry';
import { repeat } from './repeat';
import { sms } from './sms';
import { storefrontBalance, storefrontFund, storefrontHelp, storefrontMenu } from './storefront';
import { storefrontHistory } from './storefront-history';
import { storefrontOwner } from './storefront-owner';
import { unhandled } from './unhandled';

/**
 * The features of a mode (VTU_BOT_MODE): the till's (default) or the storefront's; `unhandled` stays last:
 * it answers whatever no other feature took. createBot reads it once and hands it on as `Services.features`
 * (the main menu and /help read it there), so no feature module imports this list. `languages`: more than one
 * locale file, so /language is listed.
 */
export function features(mode: BotMode = 'till', opts: { languages?: boolean } = {}): readonly Feature[] {
	const list = byMode(mode);
	if (!opts.languages) return list;
	// /language goes before /cancel (the command list and /help keep the registry's order)
	const at = list.findIndex((f) => f.name === 'cancel');
	return [...list.slice(0, at), language, ...list.slice(at)];
}

function byMode(mode: BotMode): readonly Feature[] {
	if (mode === 'storefront')
		return [
			storefrontMenu,
			data,
			airtime,
			...PRODUCTS,
			sms,
			storefrontBalance,
			storefrontFund,
			storefrontHistory,
			ownerPrices,
			support,
			cancel,
			storefrontHelp,
			storefrontOwner,
			ownerDesk,
			unhandled,
		];
	return [menu, data, airtime, ...PRODUCTS, sms, balance, history, pin, cancel, help, admin, repeat, unhandled];
}

/**
 * The bills and PINs, sold in both modes (the confirm step goes to the storefront's wallet there); bulk SMS
 * too, listed apart for its place in the command list.
 */
const PRODUCTS: readonly Feature[] = [cable, electricity, examPins, rechargeCards];
