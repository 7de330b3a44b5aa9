/**
 * Entry point: `npm run bot` (tsx bot/main.ts).
 *   BOT_MODE=polling (default): long polling through @grammyjs/runner (users handled
 *   concurrently, each chat in order; polling.ts), one instance per bot token.
 *   BOT_MODE=webhook: HTTP server on PORT, setWebhook(WEBHOOK_URL, secret_token=WEBHOOK_SECRET);
 *   several instances may run behind a load balancer when they share REDIS_URL (conversations,
 *   update dedupe, rate limits; redis.ts) and the journal file (one host).
 * SIGINT/SIGTERM stop taking updates, finish the ones in flight, stop the follower, close the DB.
 */
import { Api, GrammyError } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { VtuClient } from '../client';
import { ConfigError, loadConfig, secretsOf, type BotConfig } from './config';
import { createBot, type BotDeps, type VtuBot } from './bot';
import { createLogger, redactor, type Logger } from './logger';
import { startPolling, type Poller } from './polling';
import { connectRedis, type RedisShared } from './redis';
import { startWebhookServer, type WebhookServer } from './server';
import { StoreSide } from './storefront/service';
import { startPaymentWebhooks, type PaymentWebhooks } from './storefront/webhooks';

const ALLOWED_UPDATES = ['message', 'callback_query'] as const;
/** How long one getMe may take before start-up says it cannot reach the Bot API, and the most between tries. */
const REACH_TIMEOUT_MS = 5_000;
const REACH_MAX_DELAY_MS = 30_000;

/**
 * getMe until the Bot API answers, saying within seconds what was tried, where, and that it keeps
 * trying (through the bot's own API, auto-retry would wait minutes in silence). A rejected token is fatal.
 */
async function reachBotApi(token: string, apiRoot: string, logger: Logger): Promise<UserFromGetMe> {
	const api = new Api(token, { apiRoot });
	const where = shownUrl(apiRoot);
	for (let attempt = 1, delay = 1_000; ; attempt++, delay = Math.min(delay * 2, REACH_MAX_DELAY_MS)) {
		const signal = AbortSignal.timeout(REACH_TIMEOUT_MS);
		try {
			// grammY types its signal with the abort-controller shim, not the global AbortSignal.
			return await api.getMe(signal as Parameters<Api['getMe']>[0]);
		} catch (e) {
			if (e instanceof GrammyError && (e.error_code === 401 || e.error_code === 404)) {
				throw new Error(
					`The Bot API at ${where} rejected the bot token (${e.error_code} ${e.description}): ` +
						'check TELEGRAM_BOT_TOKEN (from @BotFather).',
				);
			}
			const cause = signal.aborted ? `no answer within ${REACH_TIMEOUT_MS / 1000} s` : reasonOf(e);
			logger.warn(
				`cannot reach the Telegram Bot API at ${where} (getMe: ${cause}); retrying in ${delay / 1000} s, ` +
					'and until it answers (check the network, a proxy, or TELEGRAM_API_ROOT)',
				{ attempt },
			);
		}
		await new Promise((r) => setTimeout(r, delay));
	}
}

/** A URL for messages: no `user:password@` part (the secrets themselves are redacted on top). */
function shownUrl(url: string): string {
	return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/, '$1');
}

/** What the fatal start-up message passes through: the config's secrets once it is loaded. */
let redactFatal: (s: string) => string = (s) => s;

/** The innermost error's code or message (grammY wraps the fetch error, which wraps the socket's). */
function reasonOf(e: unknown): string {
	let cur = e as { error?: unknown; cause?: unknown; code?: unknown; message?: unknown } | undefined;
	while (cur && typeof cur === 'object' && (cur.error ?? cur.cause)) cur = (cur.error ?? cur.cause) as typeof cur;
	return String(cur?.code ?? cur?.message ?? e);
}

/** The configuration from the environment; a bad one exits with code 2 saying what to set (no secret value). */
function configOrExit(): BotConfig {
	try {
		return loadConfig(process.env);
	} catch (e) {
		if (e instanceof ConfigError) {
			process.stderr.write(`${e.message}\nVariables are documented in bot/README.md; no secret values are printed.\n`);
			process.exit(2);
		}
		throw e;
	}
}

function vtuClient(config: BotConfig, logger: Logger): VtuClient {
	// By default the bot is its token's only buyer (client/API.md "Who owns a record"): a lost answer is
	// settled by adopting the lone matching record, so the user gets a final answer instead of "unknown".
	// VTU_TOKEN_SHARED=true when n8n or anyone else buys with the same token.
	// Several webhook instances on one SQLite file share their claims through the journal: a record one
	// instance found is taken only when no other order of any instance owns it (Journal.adopt).
	// The client gets the same processing bound the bot applies (no "not charged" before it).
	const reconcile = { sharedAccount: config.tokenShared, maxProcessingMs: config.maxProcessingMs };
	return new VtuClient({
		baseUrl: config.vtuBaseUrl,
		token: config.vtuToken,
		logger: { ...logger, debug: () => undefined },
		reconcile,
		// where the site echoes it, a customer_ref proves which record an unclear order's is (VTU_CUSTOMER_REF)
		customerRef: config.customerRef,
		// the site's SMS tariff where it publishes none (VTU_SMS_RATE_NAIRA): the storefront prices SMS on it
		...(config.smsRateNaira ? { smsRates: { perPage: config.smsRateNaira } } : {}),
	});
}

/** What the bot may share with other instances (Redis) and the storefront's store, when configured; fills deps. */
async function openShared(config: BotConfig, client: VtuClient, deps: BotDeps, logger: Logger) {
	let redis: RedisShared | undefined;
	if (config.redisUrl) {
		redis = await connectRedis(config.redisUrl, {
			botId: config.telegramToken,
			rateWindowMs: config.rateWindowMs,
			logger,
		});
		Object.assign(deps, redis.deps);
		logger.info('using Redis for conversations, update dedupe and rate limits', { namespace: redis.namespace });
	}

	// VTU_BOT_MODE=storefront: customers' wallets on the store's ledger (SQLite file or DATABASE_URL)
	let store: StoreSide | undefined;
	if (config.storefront) {
		store = await StoreSide.open(config.storefront, client, config.adminIds, logger);
		deps.storefront = store;
		logger.info('storefront mode: customers buy from their own wallets', {
			provider: config.storefront.provider,
			db: config.storefront.databaseUrl ? 'postgres (DATABASE_URL)' : config.storefront.dbPath,
		});
	}
	return { redis, store };
}

/** Storefront mode: follow the store's orders and take the payment provider's webhooks. */
async function startStorefront(
	app: VtuBot,
	store: StoreSide,
	where: { webhookPort: number; host?: string },
	logger: Logger,
): Promise<PaymentWebhooks> {
	app.storeFollower?.start();
	const payments = await startPaymentWebhooks(store, where.webhookPort, where.host);
	logger.info(
		`payment webhooks: POST /webhooks/${store.provider.name} on port ${payments.port}` +
			" (point the provider's webhook URL here)",
	);
	return payments;
}

/** Webhook mode: serve the updates' endpoint, then tell Telegram where it is. */
async function serveWebhook(app: VtuBot, config: BotConfig, logger: Logger): Promise<WebhookServer> {
	const url = new URL(config.webhookUrl!);
	const webhook = await startWebhookServer(app.bot, {
		path: url.pathname || '/',
		secretToken: config.webhookSecret!,
		port: config.port,
		host: config.host,
		logger,
	});
	await app.bot.api.setWebhook(config.webhookUrl!, {
		secret_token: config.webhookSecret,
		allowed_updates: [...ALLOWED_UPDATES],
	});
	logger.info(
		`ready: @${app.bot.botInfo.username} takes updates by webhook at ${url.origin}${url.pathname}` +
			` (listening on port ${webhook.port})`,
		{ mode: 'webhook', db: config.dbPath },
	);
	return webhook;
}

/** Long polling mode: drop any webhook, then poll. */
async function servePolling(app: VtuBot, config: BotConfig, logger: Logger): Promise<Poller> {
	await app.bot.api.deleteWebhook();
	const username = app.bot.botInfo.username;
	return startPolling(app.bot, {
		allowedUpdates: ALLOWED_UPDATES,
		logger,
		onStart: () =>
			logger.info(`ready: @${username} takes updates by long polling from ${shownUrl(config.apiRoot)}`, {
				mode: 'polling',
				db: config.dbPath,
			}),
	});
}

/** On SIGINT/SIGTERM run `close` once (exit 0; exit 1 if it takes over 30 s). Returns "is it stopping?". */
function onSignals(logger: Logger, close: () => Promise<void>): () => boolean {
	let stopping = false;
	const shutdown = async (signal: string) => {
		if (stopping) return;
		stopping = true;
		logger.info('shutting down', { signal });
		const force = setTimeout(() => process.exit(1), 30_000);
		force.unref();
		try {
			await close();
		} catch (e) {
			logger.error('shutdown error', { err: e });
		}
		process.exit(0);
	};
	process.once('SIGINT', () => void shutdown('SIGINT'));
	process.once('SIGTERM', () => void shutdown('SIGTERM'));
	return () => stopping;
}

async function main(): Promise<void> {
	const config = configOrExit();
	const secrets = secretsOf(config);
	redactFatal = redactor(secrets);
	const logger = createLogger({ level: config.logLevel, secrets });
	const client = vtuClient(config, logger);
	const deps: BotDeps = { client, logger };
	const { redis, store } = await openShared(config, client, deps, logger);

	const app = createBot(config, deps);
	logger.info(`connecting to the Telegram Bot API at ${shownUrl(config.apiRoot)}`);
	app.bot.botInfo = await reachBotApi(config.telegramToken, config.apiRoot, logger);
	await app.init();
	app.follower.start();
	const storefront = config.storefront;
	const payments =
		store && storefront
			? await startStorefront(app, store, { webhookPort: storefront.webhookPort, host: config.host }, logger)
			: undefined;

	let webhook: WebhookServer | undefined;
	let poller: Poller | undefined;
	const stopping = onSignals(logger, async () => {
		if (webhook) await webhook.close();
		if (poller) await poller.stop();
		await payments?.close();
		await app.close();
		await store?.close();
		await redis?.close();
	});

	if (config.mode === 'webhook') {
		webhook = await serveWebhook(app, config, logger);
	} else {
		poller = await servePolling(app, config, logger);
		// A fatal getUpdates error (401 revoked token, 409 another poller) ends polling: exit non-zero.
		await poller.task()?.catch((e) => {
			if (stopping()) return;
			logger.error('long polling ended', { err: e });
			void app.close().finally(() => process.exit(1));
		});
	}
}

main().catch((e) => {
	// grammY and the client keep the tokens out of their errors, but a token can be part of a configured
	// URL (TELEGRAM_API_ROOT): the message is redacted with every secret of the configuration.
	process.stderr.write(`Fatal: ${redactFatal(e instanceof Error ? e.message : String(e))}\n`);
	process.exit(1);
});
