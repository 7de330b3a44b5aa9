/**
 * createBot(config, deps): the whole bot, without starting it. Tests inject the client, the
 * database, the clock, a logger and grammY's `client.apiRoot`/`fetch` (fake Bot API).
 *
 * It only wires: the services (journal, access, PINs, orders, follower), the gates, and one
 * module per feature under features/ (each with its conversation, keyboards and texts), laid out
 * after bot-base/telegram-bot-template's src/bot/features.
 *
 * Middleware order (each line sees only what passed the one above):
 *   sequentialize (per chat and per user: the @grammyjs/runner polls concurrently, so one chat's
 *   updates must still run one after another before conversations read their state; reading commands
 *   such as /balance only queue behind each other, middlewares/reading.ts)
 *   → error boundary → gates (update dedupe → rate limit → allowlist → private chats only)
 *   → the features of the registry (features/index.ts; order in useFeatures: reading commands (they
 *   see the conversations read-only) → conversations() → PIN gate → abandon flow on a new command
 *   (/cancel) → confirm taps → flows → commands → `go:` buttons → feature buttons → unhandled)
 */
import http from 'node:http';
import https from 'node:https';
import {
	Bot,
	BotError,
	Composer,
	type Api,
	type ApiClientOptions,
	type BotConfig as GrammyBotConfig,
	type MiddlewareFn,
	type NextFunction,
} from 'grammy';
import { conversations, type ConversationData, type VersionedState } from '@grammyjs/conversations';
import { autoRetry, type AutoRetryOptions } from '@grammyjs/auto-retry';
import { sequentialize } from '@grammyjs/runner';
import { CommandGroup } from '@grammyjs/commands';
import { autoChatAction } from '@grammyjs/auto-chat-action';
import type { BotConfig } from './config';
import { secretsOf } from './config';
import { botApiFetch } from './bot-api-fetch';
import { openDatabase, type DB } from './db';
import { Journal, systemClock, type Clock } from './journal';
import { Access, Pins } from './access';
import { PinGate } from './pin-gate';
import { OrderService } from './orders';
import { Follower } from './follower';
import { createLogger, type Logger } from './logger';
import { SqliteStorage } from './storage';
import type { ConvContext, MyContext, RuntimeConfig, Services } from './context';
import type { VtuClientLike } from './vtu';
import { gates, type RateLimitRedis, type UpdateDedupe } from './middlewares/gates';
import { flowCommands } from './middlewares/flow-commands';
import { isReadingCommand, readOnlyStorage, sequentialKeyOf } from './middlewares/reading';
import { typingWhileSlow } from './middlewares/typing';
import { TYPING_AFTER_MS, confirmButtons } from './flow/confirm';
import { LiveKeyboards } from './flow/live-keyboards';
import { features } from './features';
import type { StoreSide } from './storefront/service';
import { StoreFollower } from './storefront/follower';
import { commandsOf, type Feature, type FeatureParts } from './features/registry';
import { onCallback } from './callback-data';
import { loadLocales, localeCodes, t } from './i18n';
import { UserLocales } from './language';

export type { MyContext } from './context';

/** What createBot needs from the configuration; everything but the token has a default. */
export type CreateBotConfig = Pick<BotConfig, 'telegramToken'> &
	Partial<Omit<BotConfig, 'telegramToken'>> &
	Partial<
		Pick<RuntimeConfig, 'confirmTtlMs' | 'smsMaxRecipients' | 'smsMaxFileBytes' | 'repeatWindowMs' | 'typingAfterMs'>
	> & { conversationTimeoutMs?: number };

import type { ConversationStorageAdapter } from './storage';
import { VendorWallet } from './vendor-wallet';
export type { ConversationStorageAdapter } from './storage';

export type { UpdateDedupe } from './middlewares/gates';

/** Keys that must not run concurrently: the chat (conversation state) and the user (PIN gate, limits). */
export function sequentialKey(ctx: { chat?: { id: number }; from?: { id: number } }): string[] {
	const keys: string[] = [];
	if (ctx.chat) keys.push(`c${ctx.chat.id}`);
	if (ctx.from) keys.push(`u${ctx.from.id}`);
	return keys;
}

export interface BotDeps {
	client: VtuClientLike;
	/** better-sqlite3 database (default: openDatabase(config.dbPath)). */
	db?: DB;
	clock?: Clock;
	logger?: Logger;
	/** grammY Bot options: `client.apiRoot`, `client.fetch`, `botInfo`… */
	botConfig?: GrammyBotConfig<MyContext>;
	/** Conversation storage (default: SQLite table `kv`; main.ts passes Redis when REDIS_URL is set). */
	conversationStorage?: ConversationStorageAdapter;
	/** Redis client for the rate limiter across instances. */
	rateLimitRedis?: RateLimitRedis;
	/** Update dedupe shared by instances (redis.ts); falls back to SQLite when it throws. */
	updateDedupe?: UpdateDedupe;
	/** auto-retry options for Bot API calls, or false to disable (tests). */
	autoRetry?: Partial<AutoRetryOptions> | false;
	/** fetch used to download files users send (default: global fetch). */
	fetchFile?: (url: string) => Promise<{ ok: boolean; status: number; arrayBuffer(): Promise<ArrayBuffer> }>;
	/** Storefront mode: the store side (bot/storefront/service.ts StoreSide.open); none = the till. */
	storefront?: StoreSide;
	/** More locale files (<locale>.ftl) loaded beside bot/locales (tests: a language the repo does not ship). */
	localesDir?: string;
}

export interface VtuBot {
	bot: Bot<MyContext>;
	db: DB;
	journal: Journal;
	access: Access;
	pins: Pins;
	pinGate: PinGate;
	orders: OrderService;
	follower: Follower;
	/** Storefront mode: follows the store's open orders (main.ts starts it). */
	storeFollower?: StoreFollower;
	logger: Logger;
	/** getMe, setMyCommands, reconcile orders left in `sent` by a crash. Call before taking updates. */
	init(): Promise<void>;
	setCommands(): Promise<void>;
	/** Stop the follower and close the database if createBot opened it. */
	close(): Promise<void>;
}

/** The command list Telegram shows (setMyCommands), from the feature registry: users', or an admin's. */
export function commandList(
	list: readonly Feature[],
	opts: { admin: boolean },
): { command: string; description: string }[] {
	return commandsOf(list, opts).map((c) => ({ command: c.name, description: t(c.description) }));
}

interface Core {
	logger: Logger;
	db: DB;
	ownDb: boolean;
	services: Services;
	follower: Follower;
	bot: Bot<MyContext>;
	retryOpts: Partial<AutoRetryOptions> | false;
}

/**
 * grammY's keep-alive agent has no socket cap: 500 Bot API calls at once open 500 connections
 * (each a TLS handshake to Telegram), which are closed again when idle. A capped pool reuses them.
 */
function botApiAgent(apiRoot: string): http.Agent {
	const opts = { keepAlive: true, maxSockets: 32 };
	return apiRoot.startsWith('https:') ? new https.Agent(opts) : new http.Agent(opts);
}

/** How the bot talks to the Bot API at `apiRoot`: the capped keep-alive pool and the lean fetch (bot-api-fetch.ts). */
export function botApiClient(apiRoot: string): Pick<ApiClientOptions, 'baseFetchConfig' | 'fetch'> {
	return {
		baseFetchConfig: { agent: botApiAgent(apiRoot) },
		fetch: botApiFetch as unknown as ApiClientOptions['fetch'],
	};
}

export { sharedRead } from './vendor-wallet';

function runtimeConfig(config: CreateBotConfig): RuntimeConfig {
	return {
		maxPurchaseKobo: config.maxPurchaseKobo ?? 1_000_000,
		dailyLimitKobo: config.dailyLimitKobo ?? 5_000_000,
		pinRequired: config.pinRequired ?? false,
		confirmTtlMs: config.confirmTtlMs ?? 15 * 60_000,
		smsMaxRecipients: config.smsMaxRecipients ?? 500,
		smsMaxFileBytes: config.smsMaxFileBytes ?? 512 * 1024,
		conversationTimeoutMs: config.conversationTimeoutMs ?? 30 * 60_000,
		repeatWindowMs: config.repeatWindowMs ?? 10 * 60_000,
		typingAfterMs: config.typingAfterMs ?? TYPING_AFTER_MS,
	};
}

/** The bot's own logger, redacting every secret of its configuration (unless the caller passes one). */
function coreLogger(config: CreateBotConfig): Logger {
	return createLogger({
		level: config.logLevel ?? 'info',
		secrets: secretsOf({
			telegramToken: config.telegramToken,
			vtuToken: config.vtuToken ?? '',
			webhookSecret: config.webhookSecret,
			redisUrl: config.redisUrl,
		}),
	});
}

/** The grammY bot on the capped Bot API agent, retrying 429s and 5xx unless the caller says otherwise. */
function telegramBot(config: CreateBotConfig, deps: BotDeps) {
	const apiRoot = (deps.botConfig?.client?.apiRoot ?? config.apiRoot ?? 'https://api.telegram.org').replace(/\/+$/, '');
	const client = { ...botApiClient(apiRoot), ...deps.botConfig?.client, apiRoot, sensitiveLogs: false };
	const bot = new Bot<MyContext>(config.telegramToken, { ...deps.botConfig, client });
	const retryOpts: Partial<AutoRetryOptions> | false =
		deps.autoRetry === undefined ? { maxRetryAttempts: 5, maxDelaySeconds: 60 } : deps.autoRetry;
	if (retryOpts) bot.api.config.use(autoRetry(retryOpts));
	return { bot, apiRoot, retryOpts };
}

/** Downloads a file the user sent (the SMS recipients list), refusing one over `maxBytes`. */
function fileDownloader(
	bot: Bot<MyContext>,
	fileUrl: (path: string) => string,
	fetchFile: NonNullable<BotDeps['fetchFile']>,
): Services['downloadFile'] {
	return async (fileId, maxBytes) => {
		const f = await bot.api.getFile(fileId);
		if (!f.file_path) throw new Error('Telegram returned no file path');
		if ((f.file_size ?? 0) > maxBytes) throw new Error('file too large');
		const res = await fetchFile(fileUrl(f.file_path));
		if (!res.ok) throw new Error(`file download failed with HTTP ${res.status}`);
		const buf = Buffer.from(await res.arrayBuffer());
		if (buf.length > maxBytes) throw new Error('file too large');
		return buf;
	};
}

function createCore(config: CreateBotConfig, deps: BotDeps): Core {
	const clock = deps.clock ?? systemClock;
	const logger = deps.logger ?? coreLogger(config);
	const ownDb = !deps.db;
	const db = deps.db ?? openDatabase(config.dbPath ?? './vtu-bot.sqlite');
	const cfg = runtimeConfig(config);
	const journal = new Journal(db, clock);
	const access = new Access(db, { adminIds: config.adminIds ?? [], allowedIds: config.allowedIds ?? [] }, clock);
	const pins = new Pins(
		db,
		{ maxFailures: config.pinMaxFailures ?? 3, lockMs: config.pinLockMs ?? 15 * 60_000 },
		clock,
	);
	const pinGate = new PinGate(db, pins, logger);
	const limits = { maxPurchaseKobo: cfg.maxPurchaseKobo, dailyLimitKobo: cfg.dailyLimitKobo };
	const followIntervalMs = config.followIntervalMs ?? 15_000;
	const vendorWallet = new VendorWallet(() => deps.client.user.balance(), clock, logger);
	const bounds = { maxProcessingMs: config.maxProcessingMs ?? 300_000, recheckMs: followIntervalMs };
	const orders = new OrderService({
		client: deps.client,
		journal,
		limits,
		logger,
		confirmTtlMs: cfg.confirmTtlMs,
		now: () => clock.now(),
		bounds,
		customerRef: config.customerRef === true,
		onBalance: (kobo) => vendorWallet.note(kobo),
	});

	const { bot, apiRoot, retryOpts } = telegramBot(config, deps);
	if (deps.localesDir) loadLocales(deps.localesDir);
	const locales = new UserLocales(db);
	// The URL carries the bot token: it is never logged.
	const fileUrl = (path: string) => `${apiRoot}/file/bot${config.telegramToken}/${path}`;
	const services: Services = {
		cfg,
		client: deps.client,
		walletBalance: vendorWallet.read,
		vendorWallet,
		journal,
		access,
		pins,
		pinGate,
		orders,
		logger,
		clock,
		api: bot.api,
		keyboards: new LiveKeyboards(db),
		conversationOptions: (id) => ({ id, maxMillisecondsToWait: cfg.conversationTimeoutMs }),
		storefront: deps.storefront,
		downloadFile: fileDownloader(bot, fileUrl, deps.fetchFile ?? ((url: string) => fetch(url))),
		// one mode per process: the registry (commands, menu, /help) is read for it
		features: features(deps.storefront ? 'storefront' : 'till', { languages: localeCodes().length > 1 }),
		locales,
	};
	const follower = new Follower({
		client: deps.client,
		journal,
		api: bot.api as unknown as Api,
		logger,
		now: () => clock.now(),
		intervalMs: followIntervalMs,
		refundWatchMs: config.refundWatchMs ?? 24 * 3_600_000,
		confirmTtlMs: cfg.confirmTtlMs,
		bounds,
		localeOf: (userId) => locales.of(userId),
	});
	return { logger, db, ownDb, services, follower, bot, retryOpts };
}

/** Log a failed update and tell the user something went wrong (never the details). */
function errorHandler(logger: Logger) {
	return async (err: BotError<MyContext>) => {
		const ctx = err.ctx;
		logger.error('update failed', { update: ctx.update.update_id, user: ctx.from?.id, err: err.error });
		try {
			if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: t('error-short') });
			else if (ctx.chat?.type === 'private') await ctx.reply(t('error-long'));
		} catch {
			// nothing more to do
		}
	};
}

function wire(core: Core, config: CreateBotConfig, deps: BotDeps): void {
	const { bot, services: s, retryOpts } = core;
	const onError = errorHandler(core.logger);
	bot.catch((err) => onError(err));
	// Polling runs updates concurrently (polling.ts); webhook instances may get overlapping requests.
	// Same chat or same user → one after another, in arrival order. Different users → in parallel.
	// Reading commands (/balance…) only wait for each other: answered while the chat's purchase runs.
	const reading = readingNames(s.features);
	bot.use(sequentialize<MyContext>(sequentialKeyOf(reading)));
	// every text of the update (conversations' replays and the error boundary's too) in the user's language
	bot.use(s.locales.middleware());
	const b = bot.errorBoundary(onError);
	b.use(
		gates(s, {
			updateDedupe: deps.updateDedupe,
			rateLimit: config.rateLimit ?? 20,
			rateWindowMs: config.rateWindowMs ?? 10_000,
			rateLimitRedis: deps.rateLimitRedis,
		}),
	);

	// The conversations build a new Api per update they replay; the transformer keeps no state, so one serves them all.
	const retry = retryOpts ? autoRetry(retryOpts) : undefined;
	const retryInConversation = async (ctx: ConvContext, next: NextFunction) => {
		if (retry) ctx.api.config.use(retry);
		await next();
	};
	const storage = deps.conversationStorage ?? sqliteConversationStorage(core.db);
	b.use(dropTappedKeyboard);
	// ctx.chatAction = 'typing' keeps "typing…" alive (re-sent every 5 s) until it is cleared (flow/confirm.ts).
	b.use(autoChatAction<MyContext>());
	b.use(typingWhileSlow(s.cfg.typingAfterMs)); // any slow update shows typing (middlewares/typing.ts)
	const conversationsOn = (adapter: ConversationStorageAdapter) =>
		conversations<MyContext, ConvContext>({
			storage: { type: 'key', version: 1, prefix: 'conv:', adapter },
			plugins: [retryInConversation],
		});
	useFeatures(b, s, reading, conversationsOn(storage), conversationsOn(readOnlyStorage(storage)));
}

/** The registry's reading commands (`keepsFlow`). */
function readingNames(list: readonly Feature[]): Set<string> {
	return new Set(
		commandsOf(list, { admin: true })
			.filter((c) => c.keepsFlow)
			.map((c) => c.name),
	);
}

/**
 * Only a text or caption starting with "/" can match a command (@grammyjs/commands with its defaults:
 * prefix "/", matched at the start). Every other update (taps, the phone number, a PIN) skips the two
 * command groups, whose ~20 commands each filtered it in a chain of its own (a profile of bench:bot).
 */
function isCommandText(ctx: MyContext): boolean {
	const m = ctx.msg;
	return (m?.text ?? m?.caption)?.startsWith('/') === true;
}

/**
 * The features of the registry, in this order: reading commands (answered during a flow, which stays
 * open; conversations seen read-only: middlewares/reading.ts) → conversations → PIN gate → flow-ending
 * commands (/cancel) → Confirm / Cancel taps → the flows (conversations must be installed before a
 * command enters them) → the other commands → `go:` buttons → each feature's own buttons, `unhandled` last.
 */
function useFeatures(
	b: Composer<MyContext>,
	s: Services,
	reading: ReadonlySet<string>,
	conversationsMw: MiddlewareFn<MyContext>,
	readOnlyConversations: MiddlewareFn<MyContext>,
): void {
	const built = s.features.map((f) => ({ f, parts: f.build(s) }));
	const handlerOf = (name: string) => built.map((x) => x.parts.commands?.[name]).find(Boolean);
	const specs = commandsOf(s.features, { admin: true });
	const group = (keepsFlow: boolean) => {
		const g = new CommandGroup<MyContext>();
		for (const c of specs.filter((c) => !!c.keepsFlow === keepsFlow)) {
			const h = handlerOf(c.name);
			if (h) g.command(c.name, t(c.description), h);
		}
		return g;
	};
	// a reading command ends here (answered or not): the conversations plugin may be installed once per update
	b.filter(
		(ctx) => isReadingCommand(ctx, reading),
		readOnlyConversations,
		group(true),
		() => undefined,
	);
	b.use(conversationsMw);
	b.use(s.pinGate.middleware());
	b.use(flowCommands(s, reading));
	b.use(confirmButtons(s));
	for (const { parts } of built) if (parts.flows) b.use(parts.flows);
	b.filter(isCommandText, group(false));
	const places = Object.assign({}, ...built.map((x) => x.parts.places ?? {})) as NonNullable<FeatureParts['places']>;
	const go = new Composer<MyContext>();
	onCallback(go, ['go'], async (ctx, tap) => {
		await ctx.answerCallbackQuery();
		await places[tap.place]?.(ctx);
	});
	b.use(go);
	for (const { parts } of built) if (parts.composer) b.use(parts.composer);
}

export function createBot(config: CreateBotConfig, deps: BotDeps): VtuBot {
	const core = createCore(config, deps);
	deps.storefront?.attach(core.bot.api, (customerId) => core.services.locales.of(Number(customerId)));
	const storeFollower = deps.storefront
		? new StoreFollower(deps.storefront, {
				intervalMs: config.followIntervalMs ?? 15_000,
				heldGraceMs: (config.maxProcessingMs ?? 300_000) + 60_000,
				refundWatchMs: config.refundWatchMs ?? 24 * 3_600_000,
			})
		: undefined;
	wire(core, config, deps);
	const { bot, services: s, follower, logger, db } = core;

	/** The registry's commands: users' in the default scope, all (admin ones too) in each admin's chat. */
	async function setCommands() {
		const users = new CommandGroup<MyContext>();
		for (const c of commandList(s.features, { admin: false })) users.command(c.command, c.description);
		await users.setCommands(bot);
		const admins = new CommandGroup<MyContext>();
		for (const c of commandList(s.features, { admin: true })) {
			const cmd = admins.command(c.command, c.description);
			for (const id of config.adminIds ?? []) cmd.addToScope({ type: 'chat', chat_id: id });
		}
		for (const args of admins.toArgs().scopes) {
			try {
				await bot.api.raw.setMyCommands(args);
			} catch (e) {
				// The admin may not have opened a chat with the bot yet.
				logger.warn('could not set admin commands', { admin: (args.scope as { chat_id?: number }).chat_id, err: e });
			}
		}
	}

	return {
		bot,
		db,
		journal: s.journal,
		access: s.access,
		pins: s.pins,
		pinGate: s.pinGate,
		orders: s.orders,
		follower,
		storeFollower,
		logger,
		setCommands,
		async init() {
			await bot.init();
			await setCommands();
			await follower.recoverSent();
		},
		async close() {
			await follower.stop();
			await storeFollower?.stop();
			if (core.ownDb) db.close();
		},
	};
}

/**
 * A tap's update carries the whole keyboard of the tapped message (a plan list is ~1 KB). No
 * handler reads it, and a conversation keeps every update it waits for in its state, which is
 * parsed and written again on every update of the flow: drop it before the conversations see it.
 */
async function dropTappedKeyboard(ctx: MyContext, next: NextFunction): Promise<void> {
	const m = ctx.update.callback_query?.message;
	if (m && 'reply_markup' in m) delete m.reply_markup;
	await next();
}

/** Conversation state in the SQLite `kv` table (see storage.ts). */
export function sqliteConversationStorage(db: DB): ConversationStorageAdapter {
	return new SqliteStorage<VersionedState<ConversationData>>(db);
}
