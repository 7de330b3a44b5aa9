/**
 * A local payment-provider sandbox: Paystack- and Monnify-shaped endpoints (create a customer's account,
 * verify a transaction, read its status) and an admin API to simulate a bank transfer into an account, which
 * fires the provider's signed webhook at the configured URL(s), with faults on demand: replays, the same
 * event to several receivers at once, a delay, a held event delivered later (reordering), a bad signature
 * and outages of the verification call (the receiver answers 5xx and the payment is delivered again).
 * Paystack amounts are kobo integers; Monnify's are naira with decimals, as the real ones are.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signBody } from '../payments';

export interface PaymentSandboxOptions {
	paystackSecret: string;
	monnifyApiKey: string;
	monnifySecret: string;
	/** where each provider posts its webhooks; several URLs = several instances receiving the same events */
	webhookUrls: { paystack: string[]; monnify: string[] };
	/** protects /admin; required */
	adminKey: string;
}

interface Tx {
	provider: 'paystack' | 'monnify';
	reference: string;
	amount: number;
	fee: number;
	accountNumber: string;
	accountRef: string;
	paidAt: string;
	status: 'success' | 'pending';
	/** the next verifications of this payment that fail with a 500 (a provider outage) */
	verifyOutages: number;
}

export interface TransferRequest {
	provider: 'paystack' | 'monnify';
	accountNumber: string;
	amount: number;
	fee?: number;
	reference?: string;
	/** deliveries of the same event per receiver, one after another (replays); default 1 */
	deliveries?: number;
	/** send every delivery to every receiver at the same moment */
	concurrent?: boolean;
	badSignature?: boolean;
	/** record the payment but send nothing yet (deliver later with /admin/deliver) */
	hold?: boolean;
	delayMs?: number;
	/** the provider answers "not paid" on verification (a webhook that lies) */
	unpaid?: boolean;
	/** the first n verifications of this payment fail with a 500 (the receiver must answer 5xx and be retried) */
	verifyOutages?: number;
}

const naira = (kobo: number) => `${Math.floor(kobo / 100)}.${String(kobo % 100).padStart(2, '0')}`;

export class PaymentSandbox {
	readonly txs = new Map<string, Tx>();
	private readonly accounts = new Map<string, { provider: 'paystack' | 'monnify'; accountRef: string }>();
	private nextAccount = 9_000_000_000;
	private server?: http.Server;
	url = '';
	/** every webhook delivery made, with the receiver's status */
	readonly deliveries: { reference: string; url: string; status: number }[] = [];

	constructor(readonly opts: PaymentSandboxOptions) {}

	async start(): Promise<string> {
		this.server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				this.route(req, Buffer.concat(chunks).toString('utf8')).then(
					([status, body]) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
					(e) =>
						res
							.writeHead(500, { 'content-type': 'application/json' })
							.end(JSON.stringify({ error: String((e as Error).message) })),
				);
			});
		});
		await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this.url;
	}

	async stop(): Promise<void> {
		await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
	}

	private async route(req: http.IncomingMessage, text: string): Promise<[number, unknown]> {
		const url = (req.url ?? '').split('?')[0];
		const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
		const auth = req.headers.authorization ?? '';
		if (url.startsWith('/admin/')) {
			if (req.headers['x-admin-key'] !== this.opts.adminKey) return [401, { error: 'admin key required' }];
			if (url === '/admin/transfer') return [200, await this.transfer(body as unknown as TransferRequest)];
			if (url === '/admin/deliver')
				return [200, await this.deliver(String(body.reference), body as Partial<TransferRequest>)];
		}
		if (url.startsWith('/paystack/')) {
			if (auth !== `Bearer ${this.opts.paystackSecret}`) return [401, { status: false, message: 'Invalid key' }];
			return this.paystack(req.method ?? 'GET', url.slice('/paystack'.length), body);
		}
		if (url.startsWith('/monnify/')) return this.monnify(req.method ?? 'GET', url.slice('/monnify'.length), body, auth);
		return [404, { error: 'not found' }];
	}

	private newAccount(provider: 'paystack' | 'monnify', accountRef: string): string {
		const n = String(this.nextAccount++);
		this.accounts.set(`${provider}:${n}`, { provider, accountRef });
		return n;
	}

	private paystack(method: string, path: string, body: Record<string, unknown>): [number, unknown] {
		if (method === 'POST' && path === '/customer') {
			const code = `CUS_${crypto.randomBytes(6).toString('hex')}`;
			return [200, { status: true, message: 'Customer created', data: { customer_code: code, email: body.email } }];
		}
		if (method === 'POST' && path === '/dedicated_account') {
			const code = String(body.customer ?? '');
			if (!code.startsWith('CUS_')) return [400, { status: false, message: 'Customer is required' }];
			const account = this.newAccount('paystack', code);
			return [
				200,
				{
					status: true,
					message: 'NUBAN successfully created',
					data: {
						account_number: account,
						account_name: 'SANDBOX/CUSTOMER',
						bank: { name: 'Sandbox Bank', slug: 'test-bank' },
						customer: { customer_code: code },
						active: true,
					},
				},
			];
		}
		const m = /^\/transaction\/verify\/(.+)$/.exec(path);
		if (method === 'GET' && m)
			return this.verify(`paystack:${decodeURIComponent(m[1])}`, {
				missing: { status: false, message: 'Transaction reference not found' },
				outage: { status: false, message: 'An error occurred' },
				found: (tx) => ({ status: true, message: 'Verification successful', data: this.paystackData(tx, tx.status) }),
			});
		return [404, { status: false, message: 'not found' }];
	}

	private monnify(method: string, path: string, body: Record<string, unknown>, auth: string): [number, unknown] {
		if (method === 'POST' && path === '/api/v1/auth/login') {
			const basic = `Basic ${Buffer.from(`${this.opts.monnifyApiKey}:${this.opts.monnifySecret}`).toString('base64')}`;
			if (auth !== basic) return [401, { requestSuccessful: false, responseMessage: 'Unauthorized' }];
			return [200, monnifyOk({ accessToken: this.monnifyToken(), expiresIn: 3600 })];
		}
		if (auth !== `Bearer ${this.monnifyToken()}`)
			return [401, { requestSuccessful: false, responseMessage: 'Unauthorized' }];
		if (method === 'POST' && path === '/api/v2/bank-transfer/reserved-accounts') {
			const ref = String(body.accountReference ?? '');
			if (!ref) return [400, { requestSuccessful: false, responseMessage: 'accountReference is required' }];
			const account = this.newAccount('monnify', ref);
			return [
				200,
				monnifyOk({
					accountReference: ref,
					accountName: body.accountName,
					currencyCode: 'NGN',
					status: 'ACTIVE',
					accounts: [
						{ bankCode: '50515', bankName: 'Sandbox MFB', accountNumber: account, accountName: body.accountName },
					],
				}),
			];
		}
		const m = /^\/api\/v2\/transactions\/(.+)$/.exec(path);
		if (method === 'GET' && m)
			return this.verify(`monnify:${decodeURIComponent(m[1])}`, {
				missing: { requestSuccessful: false, responseMessage: 'Transaction not found' },
				outage: { requestSuccessful: false, responseMessage: 'System error' },
				found: (tx) => monnifyOk(this.monnifyData(tx)),
			});
		return [404, { requestSuccessful: false, responseMessage: 'not found' }];
	}

	/** A verification call: 404 for an unknown transaction, 500 while its outages last, else the provider's answer. */
	private verify(
		key: string,
		answers: { missing: unknown; outage: unknown; found: (tx: Tx) => unknown },
	): [number, unknown] {
		const tx = this.txs.get(key);
		if (!tx) return [404, answers.missing];
		if (this.outage(tx)) return [500, answers.outage];
		return [200, answers.found(tx)];
	}

	/** One of the payment's verification outages, if any are left. */
	private outage(tx: Tx): boolean {
		if (tx.verifyOutages <= 0) return false;
		tx.verifyOutages--;
		return true;
	}

	private monnifyToken(): string {
		return crypto.createHash('sha256').update(`token:${this.opts.monnifySecret}`).digest('hex');
	}

	private monnifyData(tx: Tx) {
		return {
			transactionReference: tx.reference,
			paymentReference: `PAY-${tx.reference}`,
			paidOn: tx.paidAt,
			amountPaid: naira(tx.amount),
			totalPayable: naira(tx.amount),
			settlementAmount: naira(tx.amount - tx.fee),
			paymentStatus: tx.status === 'success' ? 'PAID' : 'PENDING',
			paymentMethod: 'ACCOUNT_TRANSFER',
			currency: 'NGN',
			product: { type: 'RESERVED_ACCOUNT', reference: tx.accountRef },
			destinationAccountInformation: { bankCode: '50515', bankName: 'Sandbox MFB', accountNumber: tx.accountNumber },
		};
	}

	/** Simulates a bank transfer into a sandbox account and (unless held) fires its webhook(s). */
	async transfer(t: TransferRequest) {
		const acct = this.accounts.get(`${t.provider}:${t.accountNumber}`);
		const reference =
			t.reference ??
			(t.provider === 'paystack'
				? `T${crypto.randomBytes(8).toString('hex')}`
				: `MNFY|${Date.now()}|${crypto.randomBytes(4).toString('hex')}`);
		if (!Number.isSafeInteger(t.amount) || t.amount <= 0) throw new Error('amount must be kobo above 0');
		const tx: Tx = {
			provider: t.provider,
			reference,
			amount: t.amount,
			fee: t.fee ?? 0,
			accountNumber: t.accountNumber,
			accountRef: acct?.accountRef ?? 'UNKNOWN',
			paidAt: new Date().toISOString(),
			status: t.unpaid ? 'pending' : 'success',
			verifyOutages: Math.max(0, Math.floor(t.verifyOutages ?? 0)),
		};
		this.txs.set(`${t.provider}:${reference}`, tx);
		if (t.hold) return { reference, deliveries: [] };
		return this.deliver(reference, t);
	}

	/** Fires the webhook of a recorded payment (again): replays, concurrency, delay and bad signatures as asked. */
	async deliver(reference: string, t: Partial<TransferRequest> = {}) {
		const tx = [...this.txs.values()].find((x) => x.reference === reference);
		if (!tx) throw new Error(`no transaction ${reference}`);
		const raw = JSON.stringify(this.eventOf(tx));
		const secret = tx.provider === 'paystack' ? this.opts.paystackSecret : this.opts.monnifySecret;
		const sig = t.badSignature ? signBody(`not-${secret}`, raw) : signBody(secret, raw);
		const header = tx.provider === 'paystack' ? 'x-paystack-signature' : 'monnify-signature';
		const urls = this.opts.webhookUrls[tx.provider];
		if (t.delayMs) await new Promise((r) => setTimeout(r, t.delayMs));
		const post = async (url: string) => {
			let out: { reference: string; url: string; status: number; outcome?: string };
			try {
				const res = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json', [header]: sig },
					body: raw,
				});
				const outcome = ((await res.json().catch(() => ({}))) as { outcome?: string }).outcome;
				out = { reference, url, status: res.status, outcome };
			} catch {
				// the receiver is down (restarting): recorded as status 0, to be delivered again like any failure
				out = { reference, url, status: 0, outcome: 'unreachable' };
			}
			this.deliveries.push(out);
			return out;
		};
		const n = Math.max(1, t.deliveries ?? 1);
		// the receivers as they are now (an instance may have been replaced since the event was recorded)
		const jobs = Array.from({ length: n }, () => [...urls]).flat();
		if (t.concurrent) return { reference, deliveries: await Promise.all(jobs.map(post)) };
		const done = [];
		for (const u of jobs) done.push(await post(u));
		return { reference, deliveries: done };
	}

	private eventOf(tx: Tx): unknown {
		if (tx.provider === 'monnify') return { eventType: 'SUCCESSFUL_TRANSACTION', eventData: this.monnifyData(tx) };
		return { event: 'charge.success', data: this.paystackData(tx, 'success') };
	}

	/** Paystack's transaction object: the same in a verify answer and in a charge.success event. */
	private paystackData(tx: Tx, status: string) {
		return {
			reference: tx.reference,
			status,
			amount: tx.amount,
			fees: tx.fee,
			currency: 'NGN',
			channel: 'dedicated_nuban',
			paid_at: tx.paidAt,
			customer: { customer_code: tx.accountRef },
			authorization: { channel: 'dedicated_nuban', receiver_bank_account_number: tx.accountNumber },
		};
	}
}

/** Monnify's envelope of every successful answer. */
function monnifyOk(responseBody: unknown) {
	return { requestSuccessful: true, responseMessage: 'success', responseCode: '0', responseBody };
}
