/**
 * Entry point: `npm run bot` (tsx bot/main.ts).
 *   BOT_MODE=polling (default): long polling through @grammyjs/runner (users handled
 *   concurrently, each chat in order; polling.ts), one instance per bot token.
 *   BOT_MODE=webhook: HTTP server on PORT, setWebhook(WEBHOOK_URL, secret_token=WEBHOOK_SECRET);
 *   several instances may run behind a load balancer when they share REDIS_URL (conversations,
 *   update dedupe, rate limits; redis.ts) and the journal file (one host).
 * SIGINT/SIGTERM stop taking updates, finish the ones in flight, stop the follower, close the DB.
 */
import { VtuClient } from '../client';
import { ConfigError, loadConfig, secretsOf, type BotConfig } from './config';
import { createBot, type BotDeps } from './bot';
import { createLogger } from './logger';
import { startPolling, type Poller } from './polling';
import { connectRedis, type RedisShared } from './redis';
import { startWebhookServer, type WebhookServer } from './server';

const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

async function main(): Promise<void> {
  let config: BotConfig;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\nVariables are documented in bot/README.md; no secret values are printed.\n`);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger({ level: config.logLevel, secrets: secretsOf(config) });
  const client = new VtuClient({ baseUrl: config.vtuBaseUrl, token: config.vtuToken, logger: { ...logger, debug: () => undefined } });

  const deps: BotDeps = { client, logger };
  let redis: RedisShared | undefined;
  if (config.redisUrl) {
    redis = await connectRedis(config.redisUrl, { botId: config.telegramToken, rateWindowMs: config.rateWindowMs, logger });
    Object.assign(deps, redis.deps);
    logger.info('using Redis for conversations, update dedupe and rate limits', { namespace: redis.namespace });
  }

  const app = createBot(config, deps);
  await app.init();
  app.follower.start();
  logger.info('bot ready', { username: app.bot.botInfo.username, mode: config.mode, db: config.dbPath, apiRoot: config.apiRoot });

  let webhook: WebhookServer | undefined;
  let poller: Poller | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    try {
      if (webhook) await webhook.close();
      if (poller) await poller.stop();
      await app.close();
      await redis?.close();
    } catch (e) {
      logger.error('shutdown error', { err: e });
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  if (config.mode === 'webhook') {
    const url = new URL(config.webhookUrl!);
    webhook = await startWebhookServer(app.bot, { path: url.pathname || '/', secretToken: config.webhookSecret!, port: config.port, host: config.host, logger });
    await app.bot.api.setWebhook(config.webhookUrl!, { secret_token: config.webhookSecret, allowed_updates: [...ALLOWED_UPDATES] });
    logger.info('webhook listening', { port: webhook.port, path: url.pathname });
  } else {
    await app.bot.api.deleteWebhook();
    poller = await startPolling(app.bot, { allowedUpdates: ALLOWED_UPDATES, logger, onStart: () => logger.info('long polling started', { runner: true }) });
    // A fatal getUpdates error (401 revoked token, 409 another poller) ends polling: exit non-zero.
    await poller.task()?.catch((e) => {
      if (stopping) return;
      logger.error('long polling ended', { err: e });
      void app.close().finally(() => process.exit(1));
    });
  }
}

main().catch((e) => {
  // Errors from grammY/the client never carry the tokens (sensitiveLogs off, client redaction).
  process.stderr.write(`Fatal: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
