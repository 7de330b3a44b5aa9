/**
 * One storefront instance, as a bot instance runs it: the payment webhook server (store's
 * createWebhookServer, with the providers' signature check and confirmation call) and the order engine
 * (store's Storefront over the real VtuClient). `startStoreInstance()` is the whole instance; a bot would
 * call `placeOrder` when a customer taps "buy" and `sweep` from its follower timer. Run as a child process
 * (`--child`), it takes its commands over IPC from bench/chaos-storefront.ts, which stands in for Telegram.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { VtuClient, VtuError, type PurchaseRequest } from '../client';
import { openStoreDb, type OpenedDb } from '../store/db';
import { Books } from '../store/ledger';
import { Storefront, type OrderOutcome } from '../store/orders';
import { createWebhookServer, monnify, openCustomerAccount, paystack, type PaymentProvider } from '../store/payments';

export interface InstanceConfig {
	name: string;
	/** postgres://… or a SQLite file path */
	database: string;
	vendor: { baseUrl: string; token: string; timeoutMs: number; maxProcessingMs: number };
	payments: { baseUrl: string; paystackSecret: string; monnifyApiKey: string; monnifySecret: string };
	markupPercent: number;
}

export interface StoreInstance {
	books: Books;
	storefront: Storefront;
	providers: Record<'paystack' | 'monnify', PaymentProvider>;
	webhookUrl: string;
	/** webhook log lines (refusals, parked, retries): counted by the chaos report */
	logs: string[];
	/** follows every order not final yet, and settled ones (a late vendor failure is refunded once) */
	sweep(): Promise<Record<string, number>>;
	close(): Promise<void>;
}

export async function startStoreInstance(cfg: InstanceConfig): Promise<StoreInstance> {
	const opened: OpenedDb = /^postgres/.test(cfg.database)
		? await openStoreDb({ databaseUrl: cfg.database })
		: await openStoreDb({ sqlitePath: cfg.database });
	const books = new Books(opened.db);
	await books.init();
	const vendor = (sharedAccount: boolean) =>
		new VtuClient({
			baseUrl: cfg.vendor.baseUrl,
			token: cfg.vendor.token,
			timeoutMs: cfg.vendor.timeoutMs,
			retry: { maxAttempts: 2, maxDelayMs: 500 },
			reconcile: { waitMs: 0, pollMs: 100, maxPages: 5, maxProcessingMs: cfg.vendor.maxProcessingMs, sharedAccount },
		});
	// buying: the other instance's identical order in flight is invisible here, so a lone record is never
	// adopted inside a purchase; following: the shared orders table names every order's record and every
	// open identical order, and the shop's instances are the token's only buyers
	const storefront = new Storefront({
		books,
		client: vendor(true),
		followClient: vendor(false),
		pricing: { markupPercent: cfg.markupPercent },
	});
	const p = cfg.payments;
	const providers = {
		paystack: paystack({ secretKey: p.paystackSecret, baseUrl: `${p.baseUrl}/paystack` }),
		monnify: monnify({ apiKey: p.monnifyApiKey, secretKey: p.monnifySecret, baseUrl: `${p.baseUrl}/monnify` }),
	};
	const logs: string[] = [];
	const server: http.Server = createWebhookServer(books, Object.values(providers), (l) => logs.push(l));
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	// a held order is followed only once no purchase can still be running for it: the grace must outlast the
	// slowest buy (timeouts, retries, the read-back) on a loaded machine, or the follower may release an order
	// whose purchase then succeeds (seen with 5.4 s on two busy cores)
	const heldGraceMs = 15_000 + cfg.vendor.maxProcessingMs * 2;
	const sweep = async () => {
		const open = await books.db
			.selectFrom('orders')
			.select('id')
			.where((eb) =>
				eb.or([
					eb('state', 'in', ['unknown', 'settled']),
					// a held order may still be in its purchase at another instance: only a crashed one is followed
					eb.and([eb('state', '=', 'held'), eb('created_at', '<', new Date(Date.now() - heldGraceMs).toISOString())]),
				]),
			)
			.execute();
		const states: Record<string, number> = {};
		// held orders still inside the grace are not followed yet, but they are not finished either
		const young = await books.db
			.selectFrom('orders')
			.select((eb) => eb.fn.countAll<number>().as('n'))
			.where('state', '=', 'held')
			.where('created_at', '>=', new Date(Date.now() - heldGraceMs).toISOString())
			.executeTakeFirst();
		if (Number(young?.n ?? 0)) states.waiting = Number(young!.n);
		for (const o of open) {
			const out = await storefront.follow(o.id).catch((e: unknown) => ({ state: `error:${codeOf(e)}` }));
			states[out.state] = (states[out.state] ?? 0) + 1;
		}
		return states;
	};
	return {
		books,
		storefront,
		providers,
		webhookUrl,
		logs,
		sweep,
		async close() {
			await new Promise<void>((r) => server.close(() => r()));
			await opened.close();
		},
	};
}

const codeOf = (e: unknown) => (e instanceof VtuError ? e.code : e instanceof Error ? e.message : String(e));

export type Command =
	| { op: 'customer'; id: string; provider: 'paystack' | 'monnify' }
	| { op: 'order'; customer: string; orderId: string; req: PurchaseRequest }
	| { op: 'sweep' }
	| { op: 'logs' }
	| { op: 'close' };

/** What an order command answers: the outcome, or the refusal's code (nothing held). */
export type OrderReply = Pick<OrderOutcome, 'orderId' | 'state' | 'price'> | { refused: string };

async function serve(inst: StoreInstance, c: Command): Promise<unknown> {
	switch (c.op) {
		case 'customer': {
			await inst.books.createCustomer(c.id, `Customer ${c.id}`);
			const a = await openCustomerAccount(inst.books, inst.providers[c.provider], {
				customerId: c.id,
				name: `Customer ${c.id}`,
				email: `${c.id}@example.invalid`,
			});
			return { accountNumber: a.accountNumber };
		}
		case 'order':
			try {
				const o = await inst.storefront.placeOrder(c.customer, c.orderId, c.req);
				return { orderId: o.orderId, state: o.state, price: o.price } satisfies OrderReply;
			} catch (e) {
				return { refused: codeOf(e) } satisfies OrderReply;
			}
		case 'sweep':
			return inst.sweep();
		case 'logs':
			return inst.logs;
		case 'close':
			await inst.close();
			setImmediate(() => process.exit(0));
			return 'closed';
	}
}

/** Child mode: config on the first IPC message, then `{ id, cmd }` → `{ id, ok | error }`. */
function child(): void {
	let inst: Promise<StoreInstance> | undefined;
	// the driver is gone (it crashed or was killed): an orphaned instance must not linger
	process.on('disconnect', () => process.exit(0));
	process.on('message', (m: { config?: InstanceConfig; id?: number; cmd?: Command }) => {
		if (m.config) {
			inst = startStoreInstance(m.config);
			inst.then(
				(i) => process.send!({ ready: i.webhookUrl }),
				(e: unknown) => process.send!({ failed: codeOf(e) }),
			);
			return;
		}
		void inst!
			.then((i) => serve(i, m.cmd!))
			.then(
				(ok) => process.send!({ id: m.id, ok }),
				(e: unknown) => process.send!({ id: m.id, error: codeOf(e) }),
			);
	});
}

if (require.main === module && process.argv.includes('--child')) child();
