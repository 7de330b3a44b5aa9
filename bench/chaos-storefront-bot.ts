/**
 * One bot instance of the bot-driven storefront lane, in its own OS process: the project's bot in storefront
 * mode and Telegram webhook mode, configured from its environment by the bot's own loadConfig
 * (VTU_BOT_MODE=storefront, BOT_MODE=webhook, DATABASE_URL or STORE_DB_PATH, the providers' keys…) and
 * started as bot/main.ts starts it: the store side, createBot, the follower and the store follower, the
 * payment webhook server (STORE_WEBHOOK_PORT) and the Telegram webhook server with setWebhook. Only the
 * vendor client differs: its timeout comes from CHAOS_VTU_TIMEOUT_MS (main.ts keeps the client's 30 s,
 * which would make every vendor timeout of the lane last half a minute).
 *
 * It prints one JSON line when ready, `{"ready":{"bot":<port>,"payments":<port>}}`, writes its log to
 * CHAOS_LOG, and stops cleanly on SIGTERM.
 */
import fs from 'node:fs';
import { VtuClient } from '../client';
import { createBot } from '../bot/bot';
import { loadConfig, secretsOf } from '../bot/config';
import { createLogger } from '../bot/logger';
import { startWebhookServer } from '../bot/server';
import { StoreSide } from '../bot/storefront/service';
import { startPaymentWebhooks } from '../bot/storefront/webhooks';

async function main(): Promise<void> {
	const config = loadConfig(process.env);
	const sf = config.storefront;
	if (!sf || config.mode !== 'webhook') throw new Error('the lane runs the bot in storefront and webhook mode');
	const out = fs.createWriteStream(process.env.CHAOS_LOG ?? '/dev/null', { flags: 'a' });
	const logger = createLogger({ level: 'info', secrets: secretsOf(config), write: (l) => out.write(`${l}\n`) });
	const client = new VtuClient({
		baseUrl: config.vtuBaseUrl,
		token: config.vtuToken,
		timeoutMs: Number(process.env.CHAOS_VTU_TIMEOUT_MS ?? 600),
		retry: { maxAttempts: 2, maxDelayMs: 500 },
		reconcile: { sharedAccount: config.tokenShared, maxProcessingMs: config.maxProcessingMs, waitMs: 0, pollMs: 100 },
	});
	const store = await StoreSide.open(sf, client, config.adminIds, logger);
	const app = createBot(config, { client, logger, storefront: store });
	app.bot.botInfo = await app.bot.api.getMe();
	await app.init();
	app.follower.start();
	app.storeFollower?.start();
	const payments = await startPaymentWebhooks(store, sf.webhookPort, config.host);
	const url = new URL(config.webhookUrl!);
	const webhook = await startWebhookServer(app.bot, {
		path: url.pathname,
		secretToken: config.webhookSecret!,
		port: config.port,
		host: config.host,
		logger,
	});
	await app.bot.api.setWebhook(config.webhookUrl!, { secret_token: config.webhookSecret });
	process.once('SIGTERM', () => {
		void (async () => {
			await webhook.close();
			await payments.close();
			await app.close();
			await store.close();
			out.end(() => process.exit(0));
		})();
	});
	process.stdout.write(`${JSON.stringify({ ready: { bot: webhook.port, payments: payments.port } })}\n`);
}

main().catch((e: unknown) => {
	process.stderr.write(`chaos storefront bot: ${e instanceof Error ? e.message : String(e)}\n`);
	process.exit(1);
});
