import type { Api, Context } from 'grammy';
import type { Conversation, ConversationFlavor } from '@grammyjs/conversations';
import type { AutoChatActionFlavor } from '@grammyjs/auto-chat-action';
import type { Access, Pins } from './access';
import type { LiveKeyboards } from './flow/live-keyboards';
import type { Clock, Journal } from './journal';
import type { Logger } from './logger';
import type { OrderService } from './orders';
import type { PinGate } from './pin-gate';
import type { Money, VtuClientLike } from './vtu';
import type { StoreSide } from './storefront/service';
import type { Feature } from './features/registry';
import type { VendorWallet } from './vendor-wallet';
import type { UserLocales } from './language';

/** Context of the outside middleware tree (`ctx.chatAction`: @grammyjs/auto-chat-action). */
export type MyContext = ConversationFlavor<Context & AutoChatActionFlavor>;
/** Context inside conversations (no ConversationFlavor, as v2 requires). */
export type ConvContext = Context;
export type MyConversation = Conversation<MyContext, ConvContext>;

export interface RuntimeConfig {
	maxPurchaseKobo: number;
	dailyLimitKobo: number;
	pinRequired: boolean;
	/** How long a confirm button stays valid. */
	confirmTtlMs: number;
	/** Bulk SMS: most recipients per job (one API batch). */
	smsMaxRecipients: number;
	/** Largest recipients file accepted, bytes. */
	smsMaxFileBytes: number;
	/** An abandoned flow stops swallowing the chat's messages after this long. */
	conversationTimeoutMs: number;
	/** The same purchase again within this time asks "You bought this … ago: buy again?". */
	repeatWindowMs: number;
	/** "typing…" starts when the vendor takes longer than this (the plugin then re-sends it every 5 s). */
	typingAfterMs: number;
}

/** Everything features and conversations need; closed over, never stored in conversation state. */
export interface Services {
	cfg: RuntimeConfig;
	client: VtuClientLike;
	/** The wallet balance; reads that overlap share one request (see sharedRead in vendor-wallet.ts). */
	walletBalance(): Promise<Money>;
	/** The vendor wallet as last seen (reads and purchase answers): the till's up-front check uses it. */
	vendorWallet: VendorWallet;
	journal: Journal;
	access: Access;
	pins: Pins;
	pinGate: PinGate;
	orders: OrderService;
	logger: Logger;
	clock: Clock;
	/** The outer bot.api (with auto-retry), for work inside `conversation.external`. */
	api: Api;
	/** Flow messages whose buttons /cancel takes away. */
	keyboards: LiveKeyboards;
	/** createConversation options: an abandoned flow stops swallowing the chat's messages after a while;
	 *  its unconfirmed order is refused at confirm (confirmTtlMs) and expired by the follower. */
	conversationOptions(id: string): { id: string; maxMillisecondsToWait: number };
	/** Storefront mode (VTU_BOT_MODE=storefront): the customers' wallets, payments and orders. */
	storefront?: StoreSide;
	/** The features of this bot's mode (features/index.ts), read once by createBot: menu and /help list them. */
	features: readonly Feature[];
	/** Each user's language (/language): the middleware renders each update in it. */
	locales: UserLocales;
	/** Downloads a file the user sent (getFile + file route of the configured API root). */
	downloadFile(fileId: string, maxBytes: number): Promise<Buffer>;
}
