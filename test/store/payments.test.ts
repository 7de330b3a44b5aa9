import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { audit, Books } from '../../store/ledger';
import {
	createWebhookServer,
	monnify,
	openCustomerAccount,
	paystack,
	type PaymentProvider,
} from '../../store/payments';
import { PaymentSandbox, type TransferRequest } from '../../store/sandbox/payments';
import type { OpenedDb } from '../../store/db';
import { backendNames, startBackend, type Backend } from './backends';

const SECRETS = {
	paystackSecret: 'sk_test_PAYSTACK_SECRET_1234',
	monnifyApiKey: 'MK_TEST_KEY',
	monnifySecret: 'MONNIFY_CLIENT_SECRET_5678',
	adminKey: 'admin-key',
};

interface Instance {
	books: Books;
	server: http.Server;
	url: string;
	logs: string[];
	providers: Record<'paystack' | 'monnify', PaymentProvider>;
}

describe.each(backendNames())('storefront funding over HTTP on %s', (name) => {
	let backend: Backend;
	const cleanups: (() => Promise<void>)[] = [];
	beforeAll(async () => {
		backend = await startBackend(name);
	});
	afterEach(async () => {
		while (cleanups.length) await cleanups.pop()!();
	});
	afterAll(async () => {
		await backend?.stop();
	});

	/** `count` bot instances on one fresh database, each with its own webhook server, and a provider sandbox. */
	async function setup(count = 1) {
		const f = await backend.fresh();
		const sandbox = new PaymentSandbox({ ...SECRETS, webhookUrls: { paystack: [], monnify: [] } });
		const base = await sandbox.start();
		cleanups.push(() => sandbox.stop());
		const instances: Instance[] = [];
		for (let i = 0; i < count; i++) {
			const o: OpenedDb = await f.open();
			cleanups.push(() => o.close());
			const books = new Books(o.db);
			await books.init();
			const providers = {
				paystack: paystack({ secretKey: SECRETS.paystackSecret, baseUrl: `${base}/paystack` }),
				monnify: monnify({
					apiKey: SECRETS.monnifyApiKey,
					secretKey: SECRETS.monnifySecret,
					baseUrl: `${base}/monnify`,
				}),
			};
			const logs: string[] = [];
			const server = createWebhookServer(books, Object.values(providers), (l) => logs.push(l));
			await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
			cleanups.push(() => new Promise((r) => server.close(() => r())));
			const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
			sandbox.opts.webhookUrls.paystack.push(`${url}/webhooks/paystack`);
			sandbox.opts.webhookUrls.monnify.push(`${url}/webhooks/monnify`);
			instances.push({ books, server, url, logs, providers });
		}
		const admin = async (path: string, body: Partial<TransferRequest> & { reference?: string }) => {
			const res = await fetch(`${base}/admin/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-admin-key': SECRETS.adminKey },
				body: JSON.stringify(body),
			});
			expect(res.status).toBe(200);
			return (await res.json()) as { reference: string; deliveries: { status: number; outcome?: string }[] };
		};
		const customer = async (id: string, provider: 'paystack' | 'monnify') => {
			await instances[0].books.createCustomer(id, `Customer ${id}`);
			return openCustomerAccount(instances[0].books, instances[0].providers[provider], {
				customerId: id,
				name: `Customer ${id}`,
				email: `${id}@example.test`,
			});
		};
		return { sandbox, instances, admin, customer, books: instances[0].books };
	}

	async function booksBalance(books: Books) {
		const r = await audit(books.db);
		expect(r.problems).toEqual([]);
		expect(r.wallets).toBe(r.paidIn - r.spent + r.refunded + r.manual);
		return r;
	}

	test('provider outage while confirming: answered 503, nothing credited; the retry credits once', async () => {
		const { admin, customer, books, instances } = await setup(2);
		const acct = await customer('obi', 'monnify');
		// one verification fails: one instance answers 503 (retry me), the other credits; then days of retries
		const sent = await admin('transfer', {
			provider: 'monnify',
			accountNumber: acct.accountNumber,
			amount: 250_075,
			fee: 1_000,
			verifyOutages: 1,
		});
		expect(sent.deliveries.map((d) => d.status)).toEqual([503, 200]);
		expect(sent.deliveries[1].outcome).toBe('credited');
		const again = await admin('deliver', { reference: sent.reference, deliveries: 2 });
		expect(again.deliveries.map((d) => d.outcome)).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate']);
		expect((await books.walletBalance('obi')).balance).toBe(250_075);
		expect(instances[0].logs.join('\n')).toMatch(/not recorded yet .*the provider will retry/);
		await booksBalance(books);
	});

	test(
		'Paystack: a transfer into a dedicated account credits exactly what was paid, once, through ' + 'days of replays',
		async () => {
			const { admin, customer, books } = await setup();
			const acct = await customer('ada', 'paystack');
			const sent = await admin('transfer', {
				provider: 'paystack',
				accountNumber: acct.accountNumber,
				amount: 500_050,
				fee: 7_501,
				deliveries: 4,
			});
			expect(sent.deliveries.map((d) => d.outcome)).toEqual(['credited', 'duplicate', 'duplicate', 'duplicate']);
			expect(sent.deliveries.every((d) => d.status === 200)).toBe(true);
			await admin('deliver', { reference: sent.reference, deliveries: 3 });
			expect(await books.walletBalance('ada')).toEqual({ balance: 500_050, held: 0, available: 500_050 });
			const pay = await books.db.selectFrom('payments').selectAll().execute();
			expect(pay).toEqual([
				expect.objectContaining({
					provider: 'paystack',
					reference: sent.reference,
					customer_id: 'ada',
					amount: 500_050,
					fee: 7_501,
					status: 'credited',
				}),
			]);
			await booksBalance(books);
		},
	);

	test('Monnify: naira decimals become exact kobo; the fee is amountPaid − settlementAmount', async () => {
		const { admin, customer, books } = await setup();
		const acct = await customer('bola', 'monnify');
		const sent = await admin('transfer', {
			provider: 'monnify',
			accountNumber: acct.accountNumber,
			amount: 123_456,
			fee: 1_075,
			deliveries: 2,
		});
		expect(sent.deliveries.map((d) => d.outcome)).toEqual(['credited', 'duplicate']);
		expect((await books.walletBalance('bola')).balance).toBe(123_456);
		const fees = await books.db
			.selectFrom('accounts')
			.selectAll()
			.where('id', '=', 'owner:fees')
			.executeTakeFirstOrThrow();
		expect(fees.debits_posted).toBe(1_075);
		await booksBalance(books);
	});

	test('the same event at two instances at the same moment, several times: one credit', async () => {
		const { admin, customer, instances } = await setup(2);
		const p = await customer('chi', 'paystack');
		const m = await customer('chi2', 'monnify');
		const a = await admin('transfer', {
			provider: 'paystack',
			accountNumber: p.accountNumber,
			amount: 200_000,
			deliveries: 3,
			concurrent: true,
		});
		const b = await admin('transfer', {
			provider: 'monnify',
			accountNumber: m.accountNumber,
			amount: 99_999,
			fee: 500,
			deliveries: 3,
			concurrent: true,
		});
		for (const sent of [a, b]) {
			expect(sent.deliveries).toHaveLength(6);
			expect(sent.deliveries.filter((d) => d.outcome === 'credited')).toHaveLength(1);
			expect(sent.deliveries.filter((d) => d.outcome === 'duplicate')).toHaveLength(5);
		}
		expect((await instances[1].books.walletBalance('chi')).balance).toBe(200_000);
		expect((await instances[1].books.walletBalance('chi2')).balance).toBe(99_999);
		await booksBalance(instances[1].books);
	});

	test('forged and unsigned webhooks are refused and logged without the secret; nothing is credited', async () => {
		const { admin, customer, books, instances } = await setup();
		const acct = await customer('dayo', 'paystack');
		const sent = await admin('transfer', {
			provider: 'paystack',
			accountNumber: acct.accountNumber,
			amount: 10_000,
			badSignature: true,
			deliveries: 2,
		});
		expect(sent.deliveries.map((d) => d.status)).toEqual([401, 401]);
		const forged = JSON.stringify({ event: 'charge.success', data: { reference: sent.reference, amount: 99_999_999 } });
		const tries: Record<string, string>[] = [
			{},
			{ 'x-paystack-signature': 'a'.repeat(128) },
			{ 'x-paystack-signature': 'not-hex' },
		];
		for (const headers of tries) {
			const res = await fetch(`${instances[0].url}/webhooks/paystack`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: forged,
			});
			expect(res.status).toBe(401);
		}
		const m = await fetch(`${instances[0].url}/webhooks/monnify`, {
			method: 'POST',
			body: JSON.stringify({ eventType: 'SUCCESSFUL_TRANSACTION', eventData: { transactionReference: 'X' } }),
		});
		expect(m.status).toBe(401);
		expect((await books.walletBalance('dayo')).balance).toBe(0);
		expect(instances[0].logs.filter((l) => /refused/.test(l))).toHaveLength(6);
		for (const l of instances[0].logs) for (const s of Object.values(SECRETS)) expect(l).not.toContain(s);
		// the genuine event, delivered later, still credits once
		const ok = await admin('deliver', { reference: sent.reference });
		expect(ok.deliveries.map((d) => d.outcome)).toEqual(['credited']);
		await booksBalance(books);
	});

	test('events out of order and late: each payment credits once', async () => {
		const { admin, customer, books } = await setup();
		const acct = await customer('efe', 'monnify');
		const refs: string[] = [];
		for (const amount of [1_000, 2_000, 3_000])
			refs.push(
				(await admin('transfer', { provider: 'monnify', accountNumber: acct.accountNumber, amount, hold: true }))
					.reference,
			);
		expect((await books.walletBalance('efe')).balance).toBe(0);
		for (const r of [refs[2], refs[0], refs[2], refs[1], refs[0]]) await admin('deliver', { reference: r, delayMs: 5 });
		expect((await books.walletBalance('efe')).balance).toBe(6_000);
		expect(await books.db.selectFrom('payments').select('reference').execute()).toHaveLength(3);
		await booksBalance(books);
	});

	test('a transfer into no customer’s account is parked for the owner, then assigned once', async () => {
		const { admin, books, sandbox } = await setup();
		await books.createCustomer('femi');
		const sent = await admin('transfer', { provider: 'paystack', accountNumber: '0000000001', amount: 45_000 });
		expect(sent.deliveries.map((d) => d.outcome)).toEqual(['parked']);
		const parked = await books.db
			.selectFrom('accounts')
			.selectAll()
			.where('id', '=', 'owner:parked')
			.executeTakeFirstOrThrow();
		expect(parked.credits_posted).toBe(45_000);
		expect(await books.assignParked('paystack', sent.reference, 'femi')).toBe(true);
		expect(await books.assignParked('paystack', sent.reference, 'femi')).toBe(false);
		expect((await books.walletBalance('femi')).balance).toBe(45_000);
		expect(sandbox.deliveries).toHaveLength(1);
		await booksBalance(books);
	});

	test('a signed event the provider does not confirm as paid credits nothing', async () => {
		const { admin, customer, books, instances } = await setup();
		const acct = await customer('gbenga', 'paystack');
		const sent = await admin('transfer', {
			provider: 'paystack',
			accountNumber: acct.accountNumber,
			amount: 80_000,
			unpaid: true,
		});
		expect(sent.deliveries.map((d) => d.outcome)).toEqual(['not_paid']);
		expect((await books.walletBalance('gbenga')).balance).toBe(0);
		expect(instances[0].logs.join('\n')).toMatch(/does not confirm/);
		await booksBalance(books);
	});
});
