/**
 * The registry: every feature of the bot, in the order of the command list and /help. createBot,
 * setMyCommands, /help, the main menu and the `go:` buttons all read this list.
 */
import { cancel } from '../middlewares/flow-commands';
import { admin } from './admin';
import { airtime } from './airtime';
import { balance } from './balance';
import { data } from './data';
import { history } from './history';
import { help, menu } from './menu';
import { ownerDesk, support } from './owner-desk';
import { ownerPrices } from './owner-prices';
import { pin } from './pin';
import type { Feature } from './registry';
import { repeat } from './repeat';
import { sms } from './sms';
import { storefrontBalance, storefrontFund, storefrontHelp, storefrontMenu } from './storefront';
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
			storefrontBalance,
			storefrontFund,
			ownerPrices,
			support,
			cancel,
			storefrontHelp,
			storefrontOwner,
			ownerDesk,
			unhandled,
		];
	return [menu, data, airtime, sms, balance, history, pin, cancel, help, admin, repeat, unhandled];
}

/**
 * The bot's mode (VTU_BOT_MODE): the till's features (default) or the storefront's. One mode per process:
 * createBot sets it before it reads the registry.
 */
let mode: 'till' | 'storefront' = 'till';
export function useFeatureMode(m: 'till' | 'storefront'): void {
	mode = m;
}
