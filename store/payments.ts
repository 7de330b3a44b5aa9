/**
 * Funding by bank transfer: Paystack (dedicated virtual accounts, `charge.success`) and Monnify (reserved
 * accounts, `SUCCESSFUL_TRANSACTION`). A webhook is only a hint: its HMAC-SHA512 signature over the raw body
 * is checked first (forged or unsigned → refused and logged, without the secret), then the payment is
 * confirmed with the provider's own verify/status call, and the amounts credited are the confirmed ones.
 * The ledger's (provider, reference) key makes the credit happen at most once, whatever is replayed.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { tryParseKobo } from '../client/money';
import type { Books, PaymentOutcome } from './ledger';

export type ProviderName = 'paystack' | 'monnify';

export interface ConfirmedPayment {
	reference: string;
	/** kobo paid by the payer */
	amount: number;
	/** kobo kept by the provider */
	fee: number;
	/** the provider's key for the receiving account (Paystack customer_code, Monnify accountReference) */
	accountRef: string | null;
	accountNumber: string | null;
	paidAt: string | null;
}

export interface PaymentProvider {
	readonly name: ProviderName;
	/** the signature header (lower case) */
	readonly signatureHeader: string;
	verifySignature(raw: Buffer, signature: string | undefined): boolean;
	/** the payment reference of an event worth confirming, or null for events we ignore */
	referenceOf(event: unknown): string | null;
	/** asks the provider; null when it says the payment is not (or not yet) successful */
	confirm(reference: string): Promise<ConfirmedPayment | null>;
	/** opens the customer's own receiving account at the provider */
	openAccount(c: { customerId: string; name: string; email: string }): Promise<OpenedAccount>;
}

export interface OpenedAccount {
	accountNumber: string;
	bankName: string | null;
	providerRef: string;
}

function hmacOk(secret: string, raw: Buffer, signature: string | undefined): boolean {
	if (typeof signature !== 'string' || !/^[0-9a-f]{128}$/i.test(signature)) return false;
	const want = crypto.createHmac('sha512', secret).update(raw).digest();
	return crypto.timingSafeEqual(want, Buffer.from(signature, 'hex'));
}

export function signBody(secret: string, raw: string | Buffer): string {
	return crypto.createHmac('sha512', secret).update(raw).digest('hex');
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string | null =>
	typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

/** Amounts in kobo as Paystack sends them: a non-negative safe integer, nothing else. */
function paystackKobo(v: unknown): number | null {
	const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
	return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

async function getJson(url: string, headers: Record<string, string>, init: RequestInit = {}): Promise<unknown> {
	const res = await fetch(url, {
		...init,
		headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
	});
	const text = await res.text();
	// a 404 means "no such transaction": an answer, not an outage
	if (res.status === 404) return null;
	if (!res.ok) throw new Error(`payment provider answered HTTP ${res.status}`);
	return JSON.parse(text);
}

/** How a provider's webhooks are read: signed with an HMAC of the raw body, and the paid reference in the event. */
function webhooks(
	name: ProviderName,
	signatureHeader: string,
	secretKey: string,
	paidReference: (event: Record<string, unknown>) => string | null,
): Pick<PaymentProvider, 'name' | 'signatureHeader' | 'verifySignature' | 'referenceOf'> {
	return {
		name,
		signatureHeader,
		verifySignature: (raw, sig) => hmacOk(secretKey, raw, sig),
		referenceOf: (event) => paidReference(obj(event)),
	};
}

export function paystack(opts: { secretKey: string; baseUrl?: string }): PaymentProvider {
	const base = (opts.baseUrl ?? 'https://api.paystack.co').replace(/\/$/, '');
	return {
		...webhooks('paystack', 'x-paystack-signature', opts.secretKey, (e) =>
			e.event === 'charge.success' ? str(obj(e.data).reference) : null,
		),
		async confirm(reference) {
			const body = obj(
				await getJson(`${base}/transaction/verify/${encodeURIComponent(reference)}`, {
					authorization: `Bearer ${opts.secretKey}`,
				}),
			);
			const d = obj(body.data);
			if (body.status !== true || d.status !== 'success' || str(d.reference) !== reference) return null;
			const amount = paystackKobo(d.amount);
			const fee = paystackKobo(d.fees ?? 0);
			if (amount === null || amount === 0 || fee === null || fee > amount)
				throw new Error(`paystack verify: unusable amount/fees for ${reference}`);
			const auth = obj(d.authorization);
			return {
				reference,
				amount,
				fee,
				accountRef: str(obj(d.customer).customer_code),
				accountNumber: str(auth.receiver_bank_account_number) ?? str(obj(d.metadata).receiver_account_number),
				paidAt: str(d.paid_at),
			};
		},
		async openAccount(c) {
			const h = { authorization: `Bearer ${opts.secretKey}` };
			const [first, ...rest] = c.name.split(' ');
			const cus = obj(
				obj(
					await getJson(`${base}/customer`, h, {
						method: 'POST',
						body: JSON.stringify({
							email: c.email,
							first_name: first,
							last_name: rest.join(' '),
							metadata: { customer_id: c.customerId },
						}),
					}),
				).data,
			);
			const code = str(cus.customer_code);
			if (!code) throw new Error('paystack gave no customer_code');
			const dva = obj(
				obj(
					await getJson(`${base}/dedicated_account`, h, {
						method: 'POST',
						body: JSON.stringify({ customer: code, preferred_bank: 'wema-bank' }),
					}),
				).data,
			);
			const accountNumber = str(dva.account_number);
			if (!accountNumber) throw new Error('paystack gave no account_number');
			return { accountNumber, bankName: str(obj(dva.bank).name), providerRef: code };
		},
	};
}

export function monnify(opts: {
	apiKey: string;
	secretKey: string;
	contractCode?: string;
	baseUrl?: string;
}): PaymentProvider {
	const base = (opts.baseUrl ?? 'https://api.monnify.com').replace(/\/$/, '');
	let token: { value: string; until: number } | null = null;
	async function bearer(): Promise<string> {
		if (token && token.until > Date.now()) return token.value;
		const basic = Buffer.from(`${opts.apiKey}:${opts.secretKey}`).toString('base64');
		const r = obj(
			obj(await getJson(`${base}/api/v1/auth/login`, { authorization: `Basic ${basic}` }, { method: 'POST' }))
				.responseBody,
		);
		const value = str(r.accessToken);
		if (!value) throw new Error('monnify login gave no access token');
		token = { value, until: Date.now() + Math.max(0, (Number(r.expiresIn) || 0) - 60) * 1000 };
		return value;
	}
	return {
		...webhooks('monnify', 'monnify-signature', opts.secretKey, (e) =>
			e.eventType === 'SUCCESSFUL_TRANSACTION' ? str(obj(e.eventData).transactionReference) : null,
		),
		async confirm(reference) {
			const url = `${base}/api/v2/transactions/${encodeURIComponent(reference)}`;
			const body = obj(await getJson(url, { authorization: `Bearer ${await bearer()}` }));
			const d = obj(body.responseBody);
			if (body.requestSuccessful !== true || d.paymentStatus !== 'PAID' || str(d.transactionReference) !== reference)
				return null;
			// Monnify sends naira with decimals; the client's parser turns them into exact kobo
			const amount = tryParseKobo(d.amountPaid, false);
			const settled = tryParseKobo(d.settlementAmount ?? d.amountPaid, false);
			if (amount === null || amount <= 0 || settled === null || settled < 0 || settled > amount)
				throw new Error(`monnify status: unusable amounts for ${reference}`);
			const product = obj(d.product);
			return {
				reference,
				amount,
				fee: amount - settled,
				accountRef: product.type === 'RESERVED_ACCOUNT' ? str(product.reference) : null,
				accountNumber: str(obj(d.destinationAccountInformation).accountNumber),
				paidAt: str(d.paidOn),
			};
		},
		async openAccount(c) {
			const accountReference = `vtu-${c.customerId}`;
			const body = {
				accountReference,
				accountName: c.name,
				currencyCode: 'NGN',
				contractCode: opts.contractCode ?? '',
				customerEmail: c.email,
				customerName: c.name,
				getAllAvailableBanks: false,
			};
			const r = obj(
				obj(
					await getJson(
						`${base}/api/v2/bank-transfer/reserved-accounts`,
						{ authorization: `Bearer ${await bearer()}` },
						{ method: 'POST', body: JSON.stringify(body) },
					),
				).responseBody,
			);
			const first = obj(Array.isArray(r.accounts) ? r.accounts[0] : undefined);
			const accountNumber = str(first.accountNumber);
			if (!accountNumber) throw new Error('monnify gave no reserved account number');
			return { accountNumber, bankName: str(first.bankName), providerRef: accountReference };
		},
	};
}

export interface WebhookResult {
	status: number;
	outcome: PaymentOutcome | 'refused' | 'ignored' | 'not_paid' | 'error';
}

/** Handles one delivery. 200 for anything final (credited, duplicate, parked, ignored); 5xx so the provider retries. */
export async function handleWebhook(
	books: Books,
	provider: PaymentProvider,
	raw: Buffer,
	headers: http.IncomingHttpHeaders,
	log: (line: string) => void = () => {},
): Promise<WebhookResult> {
	const sig = headers[provider.signatureHeader];
	if (!provider.verifySignature(raw, Array.isArray(sig) ? sig[0] : sig)) {
		log(`${provider.name} webhook refused: ${sig ? 'signature does not match' : 'no signature'} (${raw.length} bytes)`);
		return { status: 401, outcome: 'refused' };
	}
	let event: unknown;
	try {
		event = JSON.parse(raw.toString('utf8'));
	} catch {
		log(`${provider.name} webhook refused: signed body is not JSON`);
		return { status: 400, outcome: 'refused' };
	}
	const reference = provider.referenceOf(event);
	if (!reference) return { status: 200, outcome: 'ignored' };
	try {
		const paid = await provider.confirm(reference);
		if (!paid) {
			log(`${provider.name} payment ${reference}: the provider does not confirm it as paid; nothing credited`);
			return { status: 200, outcome: 'not_paid' };
		}
		const customerId = await customerFor(books, provider.name, paid);
		const outcome = await books.recordPayment({
			provider: provider.name,
			reference,
			customerId,
			amount: paid.amount,
			fee: paid.fee,
			accountNumber: paid.accountNumber,
			paidAt: paid.paidAt,
		});
		if (outcome === 'parked') log(`${provider.name} payment ${reference} matches no customer: parked for the owner`);
		return { status: 200, outcome };
	} catch (e) {
		log(`${provider.name} payment ${reference}: not recorded yet (${(e as Error).message}); the provider will retry`);
		return { status: 503, outcome: 'error' };
	}
}

async function customerFor(books: Books, provider: ProviderName, p: ConfirmedPayment): Promise<string | null> {
	let q = books.db.selectFrom('virtual_accounts').select('customer_id').where('provider', '=', provider);
	q = q.where((eb) =>
		eb.or([
			...(p.accountRef ? [eb('provider_ref', '=', p.accountRef)] : []),
			...(p.accountNumber ? [eb('account_number', '=', p.accountNumber)] : []),
		]),
	);
	if (!p.accountRef && !p.accountNumber) return null;
	const rows = await q.execute();
	const ids = new Set(rows.map((r) => r.customer_id));
	// two customers on one payment would be a bug: park it rather than guess
	return ids.size === 1 ? [...ids][0] : null;
}

/** Opens a customer's account at the provider and links it (one per customer and provider). */
export async function openCustomerAccount(
	books: Books,
	provider: PaymentProvider,
	c: { customerId: string; name: string; email: string },
): Promise<OpenedAccount> {
	const have = await books.db
		.selectFrom('virtual_accounts')
		.select(['account_number', 'bank_name', 'provider_ref']) // by name, not `*`: prepared once on Postgres (db.ts)
		.where('provider', '=', provider.name)
		.where('customer_id', '=', c.customerId)
		.executeTakeFirst();
	if (have) return { accountNumber: have.account_number, bankName: have.bank_name, providerRef: have.provider_ref };
	const a = await provider.openAccount(c);
	await linkAccount(books, {
		provider: provider.name,
		accountNumber: a.accountNumber,
		customerId: c.customerId,
		providerRef: a.providerRef,
		bankName: a.bankName ?? undefined,
	});
	return a;
}

/** Records a customer's virtual/reserved account so payments into it find them. */
export async function linkAccount(
	books: Books,
	a: { provider: ProviderName; accountNumber: string; customerId: string; providerRef: string; bankName?: string },
): Promise<void> {
	await books.db
		.insertInto('virtual_accounts')
		.values({
			provider: a.provider,
			account_number: a.accountNumber,
			customer_id: a.customerId,
			provider_ref: a.providerRef,
			bank_name: a.bankName ?? null,
			created_at: new Date().toISOString(),
		})
		.onConflict((oc) => oc.columns(['provider', 'account_number']).doNothing())
		.execute();
}

/** A webhook server: POST /webhooks/paystack and /webhooks/monnify, the raw body read in full before anything else. */
export function createWebhookServer(
	books: Books,
	providers: PaymentProvider[],
	log: (line: string) => void = () => {},
	maxBytes = 256 * 1024,
): http.Server {
	const byPath = new Map(providers.map((p) => [`/webhooks/${p.name}`, p]));
	return http.createServer((req, res) => {
		const provider = req.method === 'POST' ? byPath.get((req.url ?? '').split('?')[0]) : undefined;
		if (!provider) {
			res.writeHead(404).end();
			return;
		}
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (c: Buffer) => {
			size += c.length;
			if (size > maxBytes) req.destroy();
			else chunks.push(c);
		});
		req.on('end', () => {
			handleWebhook(books, provider, Buffer.concat(chunks), req.headers, log).then(
				(r) =>
					res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify({ outcome: r.outcome })),
				() => res.writeHead(500).end(),
			);
		});
	});
}
