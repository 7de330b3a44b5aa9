/**
 * A slow vendor on demand, for the journeys: an HTTP proxy in front of the real sandbox that parks the
 * requests a hold matches until the test lifts it. The test lifts it only after it has seen what it
 * waits for (a typing action, a "Sending…" edit), so "the sign came before the vendor answered" is true
 * by construction, on a loaded machine as on an idle one: no timing in it.
 */
import {
	createServer,
	request as httpRequest,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { VtuClient } from '../../client';
import type { VtuBot } from '../../bot/bot';
import { createLogger } from '../../bot/logger';
import { StoreSide } from '../../bot/storefront/service';
import { startPaymentWebhooks } from '../../bot/storefront/webhooks';
import { audit } from '../../store/ledger';
import { paystack } from '../../store/payments';
import { PaymentSandbox } from '../../store/sandbox/payments';
import { sqliteBackend } from '../store/backends';
import type { FakeUser } from './fake-telegram';
import type { Env } from './harness';
import { source } from './texts';

export interface Hold {
	/** Resolves when the first matching request has reached the proxy (and is parked). */
	readonly reached: Promise<void>;
	/** Requests parked so far. */
	readonly parked: number;
	/** True once lifted: parked requests (and later ones) go on to the sandbox. */
	readonly lifted: boolean;
	lift(): void;
	/** Lift it by dropping the parked requests' connections: the vendor never sees them. */
	drop(): void;
	readonly dropped: boolean;
}

type HoldState = { -readonly [K in keyof Hold]: Hold[K] } & {
	match: (method: string, path: string) => boolean;
	waiters: (() => void)[];
	onReach: () => void;
};

export class HoldProxy {
	private server?: Server;
	private holds: HoldState[] = [];
	baseUrl = '';

	constructor(private readonly target: string) {}

	async start(): Promise<this> {
		this.server = createServer((req, res) => void this.handle(req, res));
		await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
		this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	/** Park every request `METHOD /path…` (path prefix) from now until the hold is lifted. */
	hold(method: string, pathPrefix: string): Hold {
		let onReach!: () => void;
		const reached = new Promise<void>((r) => (onReach = r));
		const h: HoldState = {
			match: (m, p) => m === method && p.startsWith(pathPrefix),
			waiters: [],
			reached,
			onReach,
			parked: 0,
			lifted: false,
			dropped: false,
			drop: () => {
				h.dropped = true;
				h.lift();
			},
			lift: () => {
				h.lifted = true;
				this.holds = this.holds.filter((x) => x !== h);
				for (const w of h.waiters.splice(0)) w();
			},
		};
		this.holds.push(h);
		return h;
	}

	async close(): Promise<void> {
		for (const h of [...this.holds]) h.lift();
		this.server?.closeAllConnections();
		await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const h = this.holds.find((x) => x.match(req.method ?? '', req.url ?? ''));
		if (h) {
			h.parked++;
			await new Promise<void>((r) => {
				h.waiters.push(r);
				h.onReach();
			});
			if (h.dropped) return void res.destroy();
		}
		const url = new URL(req.url ?? '/', this.target);
		const out = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
			res.writeHead(up.statusCode ?? 502, up.headers);
			up.pipe(res);
		});
		out.on('error', () => res.destroy());
		res.on('close', () => out.destroy());
		out.end(Buffer.concat(chunks));
	}
}

const PAY = {
	paystackSecret: 'sk_test_journeys_0123456789abcdef',
	monnifyApiKey: 'MK_TEST_JOURNEYS',
	monnifySecret: 'monnify-secret-journeys-0123',
	adminKey: 'pay-admin-key-journeys',
};

export interface Shop {
	app: VtuBot;
	side: StoreSide;
	/** /start → the account number the bot gave (and the whole text). */
	start(u: FakeUser): Promise<{ account: string; said: string }>;
	/** A bank transfer into the account, delivered by the payment sandbox's webhook. */
	transfer(account: string, amountKobo: number): Promise<void>;
	/** The store's audit: no problem, and the wallets are what came in minus what was spent plus refunds. */
	balanced(): Promise<Awaited<ReturnType<typeof audit>>>;
}

/**
 * A storefront bot (createBot with a StoreSide on a fresh SQLite store, markup 10% + ₦50), its payment
 * webhooks, and the Paystack payment sandbox firing at them. Everything is closed after the test.
 */
export async function openShop(env: Env, opts: { client?: VtuClient } = {}): Promise<Shop> {
	const backend = await sqliteBackend();
	const pay = new PaymentSandbox({ ...PAY, webhookUrls: { paystack: [], monnify: [] } });
	const base = await pay.start();
	const client = opts.client ?? env.client;
	const side = new StoreSide({
		opened: await (await backend.fresh()).open(),
		client,
		provider: paystack({ secretKey: PAY.paystackSecret, baseUrl: `${base}/paystack` }),
		pricing: { markupPercent: '10', markupKobo: 5_000 },
		lowFloatKobo: 0,
		ownerIds: [env.admin1.id],
		logger: createLogger({ level: 'debug', secrets: [], write: (l) => env.logs.push(l) }),
	});
	await side.init();
	const app = await env.makeBot({}, env.dbPath, client, { storefront: side });
	const hooks = await startPaymentWebhooks(side, 0, '127.0.0.1');
	pay.opts.webhookUrls.paystack.push(`http://127.0.0.1:${hooks.port}/webhooks/paystack`);
	env.cleanup(async () => {
		await hooks.close();
		await pay.stop();
		await app.storeFollower?.stop();
		await side.close();
		await backend.stop();
		const seen = [...env.logs, ...env.tg.calls.map((c) => JSON.stringify(c.payload))].join('\n');
		for (const secret of [PAY.paystackSecret, PAY.monnifySecret, PAY.monnifyApiKey]) expect(seen).not.toContain(secret);
	});
	return {
		app,
		side,
		async start(u) {
			await env.send(app, env.tg.textUpdate(u, '/start'));
			const said = await env.tg.waitForText(u.id, new RegExp(source('sf-account', ACCOUNT)));
			return { account: new RegExp(source('sf-account', { ...ACCOUNT, account: /(\d+)/ })).exec(said)![1], said };
		},
		async transfer(accountNumber, amount) {
			const res = await fetch(`${base}/admin/transfer`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-admin-key': PAY.adminKey },
				body: JSON.stringify({ provider: 'paystack', accountNumber, amount }),
			});
			expect(res.status).toBe(200);
		},
		async balanced() {
			const r = await audit(side.books.db);
			expect(r.problems).toEqual([]);
			expect(r.wallets).toBe(r.paidIn - r.spent + r.refunded + r.manual);
			return r;
		},
	};
}

const ACCOUNT = { account: /\d+/, bank: /.+/, balance: /₦[\d,]+\.\d\d/ };
