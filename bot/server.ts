/**
 * Webhook mode: a plain node:http server with grammY's `webhookCallback(bot, 'http', { secretToken })`.
 * A request without the right `X-Telegram-Bot-Api-Secret-Token` gets 401 from grammY.
 * GET /healthz answers 200 for load balancers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookCallback, type Bot } from 'grammy';
import type { MyContext } from './context';
import type { Logger } from './logger';

export interface WebhookServer {
	server: http.Server;
	port: number;
	/** Stop accepting requests and wait for the ones in flight. */
	close(): Promise<void>;
}

export async function startWebhookServer(
	bot: Bot<MyContext>,
	opts: { path: string; secretToken: string; port: number; host?: string; logger?: Logger; timeoutMs?: number },
): Promise<WebhookServer> {
	const handle = webhookCallback(bot, 'http', {
		secretToken: opts.secretToken,
		// Purchases can take a while (reconcile). Telegram re-delivers on timeout; the dedupe table
		// drops the re-delivery and the journal stops a second purchase.
		timeoutMilliseconds: opts.timeoutMs ?? 55_000,
	});
	let inflight = 0;
	let idle: (() => void) | undefined;
	const server = http.createServer((req, res) => {
		const path = (req.url ?? '/').split('?')[0];
		if (req.method === 'GET' && path === '/healthz') {
			res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
			return;
		}
		if (req.method !== 'POST' || path !== opts.path) {
			res.writeHead(404).end();
			return;
		}
		inflight++;
		Promise.resolve(handle(req, res))
			.catch((e) => {
				opts.logger?.error('webhook update failed', { err: e });
				if (!res.headersSent) res.writeHead(500).end();
			})
			.finally(() => {
				if (--inflight === 0 && idle) idle();
			});
	});
	await new Promise<void>((resolve) => server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve()));
	const port = (server.address() as AddressInfo).port;
	return {
		server,
		port,
		async close() {
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeIdleConnections?.();
				if (inflight === 0) return;
			});
			if (inflight > 0) await new Promise<void>((r) => (idle = r));
		},
	};
}
