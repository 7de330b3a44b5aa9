/**
 * Entry point: `npm run bot` (tsx bot/main.ts).
 *   BOT_MODE=polling (default): long polling, one instance per bot token.
 *   BOT_MODE=webhook: HTTP server on PORT, setWebhook(WEBHOOK_URL, secret_token=WEBHOOK_SECRET);
 *   several instances may run behind a load balancer when they share REDIS_URL (conversations,
 *   rate limits) and a journal they can all reach.
 * SIGINT/SIGTERM stop taking updates, finish the ones in flight, stop the follower, close the DB.
 */
import { VtuClient } from '../client';
import { ConfigError, loadConfig, secretsOf, type BotConfig } from './config';
import { createBot, type BotDeps } from './bot';
import { createLogger } from './logger';
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
  let redis: { quit(): Promise<unknown> } | undefined;
  if (config.redisUrl) {
    const { default: Redis } = await import('ioredis');
    // The package's "types" entry points at a file it does not ship for CommonJS resolution.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { RedisAdapter } = require('@grammyjs/storage-redis') as {
      RedisAdapter: new (o: { instance: unknown; ttl?: number }) => NonNullable<BotDeps['conversationStorage']>;
    };
    const r = new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
    redis = r;
    deps.conversationStorage = new RedisAdapter({ instance: r, ttl: 7 * 86_400 });
    deps.rateLimitRedis = r;
    logger.info('using Redis for conversations and rate limits');
  }

  const app = createBot(config, deps);
  await app.init();
  app.follower.start();
  logger.info('bot ready', { username: app.bot.botInfo.username, mode: config.mode, db: config.dbPath, apiRoot: config.apiRoot });

  let webhook: WebhookServer | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    try {
      if (webhook) await webhook.close();
      if (app.bot.isRunning()) await app.bot.stop();
      await app.close();
      await redis?.quit();
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
    await app.bot.start({ allowed_updates: [...ALLOWED_UPDATES], onStart: () => logger.info('long polling started') });
  }
}

main().catch((e) => {
  // Errors from grammY/the client never carry the tokens (sensitiveLogs off, client redaction).
  process.stderr.write(`Fatal: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
