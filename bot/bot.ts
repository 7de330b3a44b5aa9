/**
 * createBot(config, deps): the whole bot, without starting it. Tests inject the client, the
 * database, the clock, a logger and grammY's `client.apiRoot`/`fetch` (fake Bot API).
 *
 * Middleware order (each line sees only what passed the one above):
 *   sequentialize (per chat and per user: the @grammyjs/runner polls concurrently, so one chat's
 *   updates must still run one after another before conversations read their state)
 *   → error boundary → update dedupe → rate limit → allowlist → private chats only
 *   → conversations() → PIN gate → abandon flow on a new command (/cancel) → conversations
 *   → main menu → commands → catch-all callback ("This button has expired") → fallback
 */
import { Bot, BotError, type Api, type BotConfig as GrammyBotConfig, type NextFunction } from 'grammy';
import { conversations, createConversation, type ConversationData, type VersionedState } from '@grammyjs/conversations';
import { Menu } from '@grammyjs/menu';
import { autoRetry, type AutoRetryOptions } from '@grammyjs/auto-retry';
import { limit } from '@grammyjs/ratelimiter';
import { sequentialize } from '@grammyjs/runner';
import type { BotConfig } from './config';
import { secretsOf } from './config';
import { openDatabase, type DB } from './db';
import { Journal, systemClock, type Clock } from './journal';
import { Access, Pins } from './access';
import { PinGate } from './pin-gate';
import { OrderService, naira, outcomeText, productName, resultOf, storedOf, userError, viewOf } from './orders';
import { Follower } from './follower';
import { createConversations } from './conversations';
import { createLogger, type Logger } from './logger';
import { SqliteStorage } from './storage';
import type { ConvContext, MyContext, RuntimeConfig, Services } from './context';
import { errorCode, formatPhone, type VtuClientLike } from './vtu';

export type { MyContext } from './context';

/** What createBot needs from the configuration; everything but the token has a default. */
export type CreateBotConfig = Pick<BotConfig, 'telegramToken'> & Partial<Omit<BotConfig, 'telegramToken'>> & Partial<Pick<RuntimeConfig, 'confirmTtlMs' | 'smsMaxRecipients' | 'smsMaxFileBytes'>> & { conversationTimeoutMs?: number };

export interface ConversationStorageAdapter {
  read(key: string): Promise<VersionedState<ConversationData> | undefined> | VersionedState<ConversationData> | undefined;
  write(key: string, state: VersionedState<ConversationData>): Promise<void> | void;
  delete(key: string): Promise<void> | void;
}

/** Remembers update ids across instances (Redis); the default is the SQLite `seen_updates` table. */
export interface UpdateDedupe {
  /** True the first time an update id is seen, false for a duplicate. */
  firstSeen(updateId: number): Promise<boolean> | boolean;
}

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
  rateLimitRedis?: { incr(key: string): Promise<number>; pexpire(key: string, ms: number): Promise<number> };
  /** Update dedupe shared by instances (redis.ts); falls back to SQLite when it throws. */
  updateDedupe?: UpdateDedupe;
  /** auto-retry options for Bot API calls, or false to disable (tests). */
  autoRetry?: Partial<AutoRetryOptions> | false;
  /** fetch used to download files users send (default: global fetch). */
  fetchFile?: (url: string) => Promise<{ ok: boolean; status: number; arrayBuffer(): Promise<ArrayBuffer> }>;
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
  logger: Logger;
  /** getMe, setMyCommands, reconcile orders left in `sent` by a crash. Call before taking updates. */
  init(): Promise<void>;
  setCommands(): Promise<void>;
  /** Stop the follower and close the database if createBot opened it. */
  close(): Promise<void>;
}

export const COMMANDS = [
  { command: 'start', description: 'Main menu' },
  { command: 'data', description: 'Buy data' },
  { command: 'airtime', description: 'Buy airtime' },
  { command: 'sms', description: 'Send bulk SMS' },
  { command: 'balance', description: 'Wallet balance' },
  { command: 'history', description: 'Recent orders' },
  { command: 'status', description: 'Status of an order: /status <reference>' },
  { command: 'setpin', description: 'Set or change your purchase PIN' },
  { command: 'cancel', description: 'Cancel the current step' },
  { command: 'help', description: 'How to use this bot' },
];

export const ADMIN_COMMANDS = [
  ...COMMANDS,
  { command: 'allow', description: 'Allow a user: /allow <telegram id>' },
  { command: 'deny', description: 'Remove a user: /deny <telegram id>' },
  { command: 'users', description: 'List allowed users' },
];

const EXPIRED = 'This button has expired';

function dateText(ms: number): string {
  return new Date(ms).toLocaleString('en-GB', { timeZone: 'Africa/Lagos', day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit' });
}

export function createBot(config: CreateBotConfig, deps: BotDeps): VtuBot {
  const clock = deps.clock ?? systemClock;
  const logger =
    deps.logger ??
    createLogger({ level: config.logLevel ?? 'info', secrets: secretsOf({ telegramToken: config.telegramToken, vtuToken: config.vtuToken ?? '', webhookSecret: config.webhookSecret, redisUrl: config.redisUrl }) });
  const ownDb = !deps.db;
  const db = deps.db ?? openDatabase(config.dbPath ?? './vtu-bot.sqlite');
  const cfg: RuntimeConfig = {
    maxPurchaseKobo: config.maxPurchaseKobo ?? 1_000_000,
    dailyLimitKobo: config.dailyLimitKobo ?? 5_000_000,
    pinRequired: config.pinRequired ?? false,
    confirmTtlMs: config.confirmTtlMs ?? 15 * 60_000,
    smsMaxRecipients: config.smsMaxRecipients ?? 500,
    smsMaxFileBytes: config.smsMaxFileBytes ?? 512 * 1024,
  };
  const journal = new Journal(db, clock);
  const access = new Access(db, { adminIds: config.adminIds ?? [], allowedIds: config.allowedIds ?? [] }, clock);
  const pins = new Pins(db, { maxFailures: config.pinMaxFailures ?? 3, lockMs: config.pinLockMs ?? 15 * 60_000 }, clock);
  const pinGate = new PinGate(db, pins, logger);
  const orders = new OrderService({
    client: deps.client,
    journal,
    limits: { maxPurchaseKobo: cfg.maxPurchaseKobo, dailyLimitKobo: cfg.dailyLimitKobo },
    logger,
    confirmTtlMs: cfg.confirmTtlMs,
    now: () => clock.now(),
  });

  const apiRoot = (deps.botConfig?.client?.apiRoot ?? config.apiRoot ?? 'https://api.telegram.org').replace(/\/+$/, '');
  const bot = new Bot<MyContext>(config.telegramToken, {
    ...deps.botConfig,
    client: { ...deps.botConfig?.client, apiRoot, sensitiveLogs: false },
  });
  const retryOpts: Partial<AutoRetryOptions> | false = deps.autoRetry === undefined ? { maxRetryAttempts: 5, maxDelaySeconds: 60 } : deps.autoRetry;
  if (retryOpts) bot.api.config.use(autoRetry(retryOpts));

  const fetchFile = deps.fetchFile ?? ((url: string) => fetch(url));
  const services: Services = {
    cfg,
    client: deps.client,
    journal,
    access,
    pins,
    pinGate,
    orders,
    logger,
    clock,
    api: bot.api,
    async downloadFile(fileId, maxBytes) {
      const f = await bot.api.getFile(fileId);
      if (!f.file_path) throw new Error('Telegram returned no file path');
      if ((f.file_size ?? 0) > maxBytes) throw new Error('file too large');
      // The URL carries the bot token: it is never logged.
      const res = await fetchFile(`${apiRoot}/file/bot${config.telegramToken}/${f.file_path}`);
      if (!res.ok) throw new Error(`file download failed with HTTP ${res.status}`);
      const buf = Buffer.from(await res.arrayBuffer());
      if (buf.length > maxBytes) throw new Error('file too large');
      return buf;
    },
  };

  const follower = new Follower({
    client: deps.client,
    journal,
    api: bot.api as unknown as Api,
    logger,
    now: () => clock.now(),
    intervalMs: config.followIntervalMs ?? 15_000,
    refundWatchMs: config.refundWatchMs ?? 24 * 3_600_000,
    confirmTtlMs: cfg.confirmTtlMs,
  });

  // ------------------------------------------------------------------ errors
  const onError = async (err: BotError<MyContext>) => {
    const ctx = err.ctx;
    logger.error('update failed', { update: ctx.update.update_id, user: ctx.from?.id, err: err.error });
    try {
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: 'Something went wrong' });
      else if (ctx.chat?.type === 'private') await ctx.reply('Sorry, something went wrong. Please try again, and check /history before buying again.');
    } catch {
      // nothing more to do
    }
  };
  bot.catch((err) => onError(err));
  // Polling runs updates concurrently (polling.ts); webhook instances may get overlapping requests.
  // Same chat or same user → one after another, in arrival order. Different users → in parallel.
  bot.use(sequentialize<MyContext>(sequentialKey));
  const b = bot.errorBoundary(onError);

  // ------------------------------------------------------------------ gates
  const firstSeen = async (updateId: number): Promise<boolean> => {
    if (!deps.updateDedupe) return journal.firstSeen(updateId);
    try {
      return await deps.updateDedupe.firstSeen(updateId);
    } catch (e) {
      // Redis unreachable: the journal file is shared by the instances too, so dedupe there.
      logger.warn('shared update dedupe failed, using the journal', { update: updateId, err: e });
      return journal.firstSeen(updateId);
    }
  };
  b.use(async (ctx, next) => {
    if (!(await firstSeen(ctx.update.update_id))) {
      logger.info('duplicate update ignored', { update: ctx.update.update_id });
      return;
    }
    await next();
  });

  b.use(
    limit<MyContext, NonNullable<BotDeps['rateLimitRedis']>>({
      timeFrame: config.rateWindowMs ?? 10_000,
      limit: config.rateLimit ?? 20,
      keyGenerator: (ctx) => ctx.from?.id.toString(),
      ...(deps.rateLimitRedis ? { storageClient: deps.rateLimitRedis } : {}),
      onLimitExceeded: (ctx) => {
        logger.warn('rate limited', { user: ctx.from?.id });
        if (ctx.callbackQuery) void ctx.answerCallbackQuery({ text: 'Too many requests, slow down' }).catch(() => undefined);
      },
    }),
  );

  b.use(async (ctx, next) => {
    const uid = ctx.from?.id;
    if (uid === undefined) return;
    if (access.isAllowed(uid)) return next();
    logger.info('stranger refused', { user: uid });
    if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: 'You are not allowed to use this bot.' });
    else if (ctx.chat?.type === 'private' && ctx.message) {
      await ctx.reply(`Sorry, this bot is private. Your Telegram user ID is ${uid}. Ask the bot's admin to allow it.`);
    }
  });

  b.use(async (ctx, next) => {
    if (ctx.chat?.type === 'private') return next();
    if (ctx.callbackQuery) return void (await ctx.answerCallbackQuery({ text: 'Please use me in a private chat.' }));
    if (ctx.message?.text?.startsWith('/') && ctx.chat) {
      await ctx.reply(`For your safety I only take orders in a private chat. Open a chat with @${ctx.me.username}.`);
    }
  });

  // ------------------------------------------------------------------ conversations
  const retryInConversation = async (ctx: ConvContext, next: NextFunction) => {
    if (retryOpts) ctx.api.config.use(autoRetry(retryOpts));
    await next();
  };
  b.use(
    conversations<MyContext, ConvContext>({
      storage: { type: 'key', version: 1, prefix: 'conv:', adapter: deps.conversationStorage ?? sqliteConversationStorage(db) },
      plugins: [retryInConversation],
    }),
  );
  b.use(pinGate.middleware());

  const abandon = async (ctx: MyContext) => {
    await ctx.conversation.exitAll();
    const uid = ctx.from!.id;
    journal.cancelCreatedFor(uid);
    pinGate.disarm(uid);
  };
  b.use(async (ctx, next) => {
    const text = ctx.message?.text;
    if (text?.startsWith('/')) {
      const active = Object.keys(ctx.conversation.active()).length > 0;
      if (active || /^\/cancel(@\w+)?\b/.test(text)) await abandon(ctx);
      if (/^\/cancel(@\w+)?\b/.test(text)) return void (await ctx.reply(active ? 'Cancelled. Nothing was bought.' : 'Nothing to cancel.'));
    }
    await next();
  });

  const flows = createConversations(services);
  // An abandoned flow stops swallowing the chat's messages after 30 minutes; its unconfirmed
  // order is refused at confirm (confirmTtlMs) and expired by the follower.
  const convOpts = (id: string) => ({ id, maxMillisecondsToWait: config.conversationTimeoutMs ?? 30 * 60_000 });
  b.use(createConversation<MyContext, ConvContext>(flows.data, convOpts('data')));
  b.use(createConversation<MyContext, ConvContext>(flows.airtime, convOpts('airtime')));
  b.use(createConversation<MyContext, ConvContext>(flows.sms, convOpts('sms')));
  b.use(createConversation<MyContext, ConvContext>(flows.setpin, convOpts('setpin')));

  // ------------------------------------------------------------------ features
  const showBalance = async (ctx: MyContext) => {
    try {
      const bal = await deps.client.user.balance();
      await ctx.reply(`💰 Wallet balance: ${naira(bal.kobo)}`);
    } catch (e) {
      await ctx.reply(`Could not read the balance: ${userError(errorCode(e) ?? null, e instanceof Error ? e.message : null)}`);
    }
  };

  const showHistory = async (ctx: MyContext) => {
    const list = journal.recentForUser(ctx.from!.id, 10);
    if (!list.length) return void (await ctx.reply('No orders yet. Try /data or /airtime.'));
    const lines = list.map((o, i) => {
      const to = o.recipient ? ` → ${o.product === 'sms' ? o.recipient : formatPhone(o.recipient)}` : '';
      return `${i + 1}. ${dateText(o.createdAt)} ${o.description}${to}, ${naira(o.chargedKobo ?? o.amountKobo)}: ${o.state}${o.ident ? ` (${o.ident})` : ''}`;
    });
    await ctx.reply(`🧾 Recent orders\n${lines.join('\n')}\n\nDetails: /status <reference>`);
  };

  const helpText = (ctx: MyContext) =>
    [
      'I buy data, airtime and bulk SMS from the merchant wallet.',
      '',
      '/data – buy a data plan',
      '/airtime – buy airtime',
      '/sms – send bulk SMS (paste numbers or send a .txt/.csv file)',
      '/balance – wallet balance',
      '/history – your recent orders',
      '/status <reference> – one order',
      '/setpin – set or change your purchase PIN',
      '/cancel – stop the current step',
      '',
      `Limits: ${naira(cfg.maxPurchaseKobo)} per purchase, ${naira(cfg.dailyLimitKobo)} per day (${naira(Math.max(0, cfg.dailyLimitKobo - journal.spentToday(ctx.from!.id)))} left today).`,
      cfg.pinRequired ? 'A PIN is asked before every purchase.' : 'No PIN is required.',
      ...(access.isAdmin(ctx.from?.id) ? ['', 'Admin: /allow <id>, /deny <id>, /users'] : []),
    ].join('\n');

  const mainMenu = new Menu<MyContext>('main', { onMenuOutdated: EXPIRED })
    .text('📶 Buy data', (ctx) => ctx.conversation.enter('data'))
    .text('📞 Airtime', (ctx) => ctx.conversation.enter('airtime'))
    .row()
    .text('✉️ Bulk SMS', (ctx) => ctx.conversation.enter('sms'))
    .text('💰 Balance', showBalance)
    .row()
    .text('🧾 History', showHistory)
    .text('❓ Help', (ctx) => ctx.reply(helpText(ctx)));
  b.use(mainMenu);

  b.command('start', (ctx) => ctx.reply(`Hello ${ctx.from?.first_name ?? ''}! What would you like to do?`, { reply_markup: mainMenu }));
  b.command('help', (ctx) => ctx.reply(helpText(ctx)));
  b.command('balance', showBalance);
  b.command('history', showHistory);
  b.command('data', (ctx) => ctx.conversation.enter('data'));
  b.command('airtime', (ctx) => ctx.conversation.enter('airtime'));
  b.command('sms', (ctx) => ctx.conversation.enter('sms'));
  b.command('setpin', (ctx) => ctx.conversation.enter('setpin'));

  b.command('status', async (ctx) => {
    const ref = ctx.match.trim();
    if (!ref) return void (await ctx.reply('Usage: /status <reference>, e.g. /status Data123. See /history for references.'));
    let o = journal.findForUser(ctx.from!.id, ref);
    if (!o) return void (await ctx.reply('No order with that reference in your history.'));
    const prev = resultOf(o);
    if (prev && (o.state === 'processing' || o.state === 'successful')) {
      try {
        const now = await deps.client.transactions.refresh(prev);
        if (now.status !== o.state) {
          o = journal.recordResult(o.id, storedOf(now));
          journal.markNotified(o.id, o.state);
        }
      } catch (e) {
        logger.warn('status refresh failed', { order: o.id, code: errorCode(e) });
      }
    }
    await ctx.reply(`${productName(o.product)} order of ${dateText(o.createdAt)}\n${outcomeText(viewOf(o))}`);
  });

  const admin = b.filter((ctx) => access.isAdmin(ctx.from?.id));
  const parseId = (s: string) => (/^\d{1,15}$/.test(s.trim()) ? Number(s.trim()) : null);
  admin.command('allow', async (ctx) => {
    const id = parseId(ctx.match);
    if (id === null) return void (await ctx.reply('Usage: /allow <telegram user id> (the number strangers are shown).'));
    access.allow(id, ctx.from!.id);
    logger.info('user allowed', { user: id, by: ctx.from!.id });
    await ctx.reply(`✅ User ${id} may now use the bot.`);
  });
  admin.command('deny', async (ctx) => {
    const id = parseId(ctx.match);
    if (id === null) return void (await ctx.reply('Usage: /deny <telegram user id>'));
    if (!access.deny(id, ctx.from!.id)) return void (await ctx.reply('Admins cannot be removed from chat; change BOT_ADMIN_IDS.'));
    journal.cancelCreatedFor(id);
    logger.info('user denied', { user: id, by: ctx.from!.id });
    await ctx.reply(`🚫 User ${id} can no longer use the bot.`);
  });
  admin.command('users', (ctx) => ctx.reply(`Allowed users:\n${access.listAllowed().join('\n')}`));
  b.command(['allow', 'deny', 'users'], (ctx) => ctx.reply('Only admins can do that.'));

  // Stale buttons: anything no flow or menu took.
  b.on('callback_query:data', (ctx) => ctx.answerCallbackQuery({ text: EXPIRED }));
  b.on('message', (ctx) => ctx.reply('I did not understand that. Send /start for the menu or /help.'));

  async function setCommands() {
    await bot.api.setMyCommands(COMMANDS);
    for (const id of config.adminIds ?? []) {
      try {
        await bot.api.setMyCommands(ADMIN_COMMANDS, { scope: { type: 'chat', chat_id: id } });
      } catch (e) {
        // The admin may not have opened a chat with the bot yet.
        logger.warn('could not set admin commands', { admin: id, err: e });
      }
    }
  }

  return {
    bot,
    db,
    journal,
    access,
    pins,
    pinGate,
    orders,
    follower,
    logger,
    setCommands,
    async init() {
      await bot.init();
      await setCommands();
      await follower.recoverSent();
    },
    async close() {
      await follower.stop();
      if (ownDb) db.close();
    },
  };
}

/** Conversation state in the SQLite `kv` table (see storage.ts). */
export function sqliteConversationStorage(db: DB): ConversationStorageAdapter {
  return new SqliteStorage<VersionedState<ConversationData>>(db);
}
