/**
 * The payment webhook server of the storefront: POST /webhooks/paystack (or /webhooks/monnify), checked,
 * confirmed with the provider and credited at most once by store/payments.ts handleWebhook; then the
 * customer is told "₦X landed" once, whatever is replayed (the notice key is the payment's reference).
 * It listens on its own port (STORE_WEBHOOK_PORT) in both polling and webhook mode.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleWebhook } from '../../store/payments';
import { t } from '../i18n';
import { naira } from '../orders';
import type { StoreSide } from './service';

const MAX_BYTES = 256 * 1024;

/** After a credit (or its replay): tell the customer once. */
async function tellPayment(side: StoreSide, raw: Buffer): Promise<void> {
	const provider = side.provider;
	const reference = provider.referenceOf(JSON.parse(raw.toString('utf8')));
	if (!reference) return;
	const p = await side.books.db
		.selectFrom('payments')
		.select(['status', 'customer_id', 'amount']) // by name, not `*`: prepared once on Postgres (store/db.ts)
		.where('provider', '=', provider.name)
		.where('reference', '=', reference)
		.executeTakeFirst();
	if (!p || p.status !== 'credited' || !p.customer_id) return;
	const w = await side.books.walletBalance(p.customer_id);
	// in the customer's language (/language)
	await side.inLocaleOf(p.customer_id, () =>
		side.tellOnce(
			`pay:${provider.name}:${reference}`,
			p.customer_id!,
			t('sf-payment-landed', { amount: naira(p.amount), balance: naira(w.available) }),
		),
	);
}

export interface PaymentWebhooks {
	server: http.Server;
	port: number;
	close(): Promise<void>;
}

export async function startPaymentWebhooks(side: StoreSide, port: number, host = '0.0.0.0'): Promise<PaymentWebhooks> {
	const log = side.o.logger;
	const path = `/webhooks/${side.provider.name}`;
	const server = http.createServer((req, res) => {
		const url = (req.url ?? '').split('?')[0];
		if (req.method === 'GET' && url === '/healthz') return void res.writeHead(200).end('ok');
		if (req.method !== 'POST' || url !== path) return void res.writeHead(404).end();
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (c: Buffer) => {
			size += c.length;
			if (size > MAX_BYTES) req.destroy();
			else chunks.push(c);
		});
		req.on('end', () => {
			const raw = Buffer.concat(chunks);
			void (async () => {
				const r = await handleWebhook(side.books, side.provider, raw, req.headers, (line) => log.warn(line));
				// told before the answer, so the provider's delivery ends when the customer knows; a failure to
				// tell is logged and the credit still stands (a redelivery tries again)
				if (r.outcome === 'credited' || r.outcome === 'duplicate')
					await tellPayment(side, raw).catch((e) => log.error('payment notice failed', { err: e }));
				res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify({ outcome: r.outcome }));
			})().catch((e) => {
				log.error('payment webhook failed', { err: e });
				if (!res.headersSent) res.writeHead(500).end();
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(port, host, () => resolve()));
	return {
		server,
		port: (server.address() as AddressInfo).port,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeIdleConnections?.();
			}),
	};
}
