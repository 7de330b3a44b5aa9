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
import { help, menu } from './menu';
import { ownerDesk, support } from './owner-desk';
import { ownerPrices } from './owner-prices';
import { pin } from './pin';
import { rechargeCards } from './recharge-cards';
import type { Feature } from './registry';
import { repeat } from './repeat';
import { sms } from './sms';
import { storefrontBalance, storefrontFund, storefrontHelp, storefrontMenu } from './storefront';
import { storefrontHistory } from './storefront-history';
import { storefrontOwner } from './storefront-owner';
import { unhandled } from './unhandled';

/**
 * `unhandled` stays last: it answers whatever no other feature took. A function, not a constant: feature
 * modules import keyboards that read this list, so it is built when asked, after every module loaded.
 */
export function features(): readonly Feature[] {
	if (mode === 'storefront')
		return [
			storefrontMenu,
			data,
			airtime,
			...PRODUCTS,
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

/** The bills and PINs, sold in both modes (the confirm step goes to the storefront's wallet there). */
const PRODUCTS: readonly Feature[] = [cable, electricity, examPins, rechargeCards];

/**
 * The bot's mode (VTU_BOT_MODE): the till's features (default) or the storefront's. One mode per process:
 * createBot sets it before it reads the registry.
 */
let mode: 'till' | 'storefront' = 'till';
export function useFeatureMode(m: 'till' | 'storefront'): void {
	mode = m;
}
