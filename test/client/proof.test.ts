/**
 * "not_charged is a proof, not an absence" (client/API.md "Proof of not charged"), against the sandbox
 * over HTTP. A busy account is other buyers' records created between the client's reads (by a transport
 * hook that, after a list read, buys on the same account before letting the client go on: the list then
 * scrolls past the record between two reads, deterministically). A slow vendor is the sandbox's latency
 * fault above the client's timeout: the record is created when the POST finishes, after the client gave up.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import {
	AccountRegistry,
	VtuClient,
	createNodeTransport,
	type PurchaseRequest,
	type Transport,
	type TransportRequest,
} from '../../client';
import { rawBuy, startEnv, type Env } from './helpers';

const PAGE = 15;

/** A node transport that counts requests, tags POSTs, and runs `afterRead` once after the next list read. */
function hooked(path: string, post: Record<string, string> = {}) {
	const inner = createNodeTransport();
	const requests: TransportRequest[] = [];
	let afterRead: (() => Promise<void>) | null = null;
	const transport: Transport = async (req) => {
		requests.push(req);
		const res = await inner(req.method === 'POST' ? { ...req, headers: { ...req.headers, ...post } } : req);
		if (req.method === 'GET' && new URL(req.url).pathname === path && afterRead) {
			const h = afterRead;
			afterRead = null;
			await h();
		}
		return res;
	};
	return { transport, requests, onNextRead: (h: () => Promise<void>) => void (afterRead = h) };
}

const phone = (i: number) => `0803${String(2_000_000 + i)}`;
const tick = () => new Promise((r) => setTimeout(r, 50));

describe('busy family account (?search= ignored): the list scrolls past the record between reads', () => {
	let env: Env;
	beforeAll(async () => {
		env = await startEnv('family');
		await env.admin.setConfig({ request_faults: true });
	});
	afterAll(() => env.close());
	let n = 0;
	/** `count` purchases by another process on the same account (other recipients: they never match). */
	const others = async (count: number) => {
		for (let i = 0; i < count; i++)
			await rawBuy(env.client, env.sb.demo.token, { product: 'data', network: 'MTN', plan: 3, phone: phone(n++) });
	};
	const mine = async (tag: string) =>
		(await env.admin.transactions({ username: 'demo' })).filter((t) => t.tag === tag).map((t) => t.id);
	const client = (t: Transport, reconcile: Record<string, unknown> = {}) =>
		new VtuClient({
			baseUrl: env.sb.baseUrl,
			token: env.sb.demo.token,
			transport: t,
			timeoutMs: 5_000,
			accounts: new AccountRegistry(),
			reconcile: { waitMs: 600, pollMs: 100, maxProcessingMs: 1_000, ...reconcile },
		});

	test(
		'500 after the debit, shared account: the record seen on the first read stays a candidate after ' +
			'it scrolled 4 pages down',
		async () => {
			await others(20);
			const req: PurchaseRequest = { product: 'data', network: 'MTN', plan: 3, phone: '08039990001' };
			const h = hooked('/api/data/', { 'x-sandbox-fault': 'html_after', 'x-sandbox-tag': 'scrolled' });
			h.onNextRead(() => others(4 * PAGE)); // after the first read, 60 newer records push ours to page 5
			const e = await client(h.transport, { sharedAccount: true })
				.buy(req)
				.catch((x) => x);
			const [id] = await mine('scrolled');
			expect(e.code).toBe('unknown_outcome');
			expect(e.candidates.map((c: { id: number }) => c.id)).toEqual([id]);
			expect(e.details).toMatchObject({
				request: req,
				sentAt: expect.any(String),
				resolvableAfter: expect.any(String),
			});
			expect(e.details.candidates).toEqual([
				expect.objectContaining({
					id,
					amount: expect.stringMatching(/^\d+\.\d\d$/),
					status: 'successful',
					reference: expect.any(String),
					createdAt: expect.any(String),
				}),
			]);
			expect(e.message).toMatch(new RegExp(`#${id} `));
			expect(h.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
		},
	);

	test(
		'reads cut short (readBackPages 2) never reach the record again: it stays a candidate, the ' +
			'answer is never not_charged',
		async () => {
			const req: PurchaseRequest = { product: 'data', network: 'MTN', plan: 3, phone: '08039990002' };
			const h = hooked('/api/data/', { 'x-sandbox-fault': 'html_after', 'x-sandbox-tag': 'cut' });
			h.onNextRead(() => others(3 * PAGE));
			// the whole window must be read for a proof; with 2 pages a read no longer reaches the record nor the window's start
			const e = await client(h.transport, { sharedAccount: true, readBackPages: 2, waitMs: 1_500 })
				.buy(req)
				.catch((x) => x);
			expect(e.code).toBe('unknown_outcome');
			expect(e.candidates.map((c: { id: number }) => c.id)).toEqual(await mine('cut'));
		},
	);

	test(
		'500 before the debit: not_charged only after reading every record back to the send, past the ' +
			'processing bound',
		async () => {
			const req: PurchaseRequest = { product: 'data', network: 'MTN', plan: 3, phone: '08039990003' };
			const h = hooked('/api/data/', { 'x-sandbox-fault': 'error_before' });
			h.onNextRead(() => others(4 * PAGE));
			const sentAt = Date.now();
			const e = await client(h.transport, { sharedAccount: true, waitMs: 3_000 })
				.buy(req)
				.catch((x) => x);
			expect(e.code).toBe('not_charged');
			expect(Date.now()).toBeGreaterThanOrEqual(sentAt + 1_000);
			// the reads went back past the 60 new records (pages 1..5), not a fixed number of pages
			const pages = h.requests.filter((r) => r.method === 'GET' && r.query?.page).map((r) => Number(r.query!.page));
			expect(Math.max(...pages)).toBeGreaterThanOrEqual(5);
			expect(await mine('never')).toEqual([]);
		},
	);
});

describe('slow vendor: the POST takes longer than the client waits, its record appears when it finishes', () => {
	let env: Env;
	beforeAll(async () => {
		env = await startEnv('seed');
		await env.admin.setConfig({ request_faults: true });
	});
	afterAll(() => env.close());
	const debits = async () => (await env.admin.ledger('demo')).filter((l) => l.kind === 'debit').length;
	const tagged = async (tag: string) =>
		(await env.admin.transactions({ username: 'demo' })).filter((t) => t.tag === tag);

	test(
		'timeout before the record exists → unknown_outcome, retryIfNotCharged never re-sends; ' +
			'reconcile() later finds it',
		async () => {
			const req: PurchaseRequest = { product: 'data', network: 'MTN', plan: 3, phone: '08039990010' };
			const before = await debits();
			const h = hooked('/api/data/', { 'x-sandbox-fault': 'latency:2500', 'x-sandbox-tag': 'slow' });
			// the sandbox's vendor here may take up to 10 s: the client's 400 ms timeout and 300 ms wait prove nothing
			const c = new VtuClient({
				baseUrl: env.sb.baseUrl,
				token: env.sb.demo.token,
				transport: h.transport,
				timeoutMs: 400,
				accounts: new AccountRegistry(),
				reconcile: { waitMs: 300, pollMs: 100, maxProcessingMs: 10_000, sharedAccount: false },
			});
			const e = await c.buy(req, { retryIfNotCharged: true }).catch((x) => x);
			expect(e.code).toBe('unknown_outcome');
			expect(e.details.request).toEqual(req);
			expect(new Date(e.details.resolvableAfter).getTime() - new Date(e.details.sentAt).getTime()).toBe(10_000);
			expect(h.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
			// the POST finishes later and creates the record
			while ((await tagged('slow')).length === 0) await tick();
			const r = await c.reconcile(e.details.request, { sentAt: e.details.sentAt, waitMs: 0 });
			expect(r).toMatchObject({ id: (await tagged('slow'))[0].id, path: 'reconciled' });
			expect(await debits()).toBe(before + 1);
			expect(h.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
		},
	);

	test(
		'reconcile() of a purchase that never reached the vendor: unknown before the bound, not_charged ' + 'after it',
		async () => {
			const req: PurchaseRequest = { product: 'data', network: 'MTN', plan: 3, phone: '08039990011' };
			const h = hooked('/api/data/', { 'x-sandbox-fault': 'error_before' });
			const c = new VtuClient({
				baseUrl: env.sb.baseUrl,
				token: env.sb.demo.token,
				transport: h.transport,
				timeoutMs: 2_000,
				accounts: new AccountRegistry(),
				reconcile: { waitMs: 0, pollMs: 100, maxProcessingMs: 1_500 },
			});
			const e = await c.buy(req, { retryIfNotCharged: true }).catch((x) => x);
			expect(e.code).toBe('unknown_outcome');
			expect(e.message).toMatch(/maxProcessingMs/);
			const bound = new Date(e.details.resolvableAfter).getTime();
			// a clock condition (the vendor's bound), not a timing assertion
			while (Date.now() <= bound) await tick();
			const e2 = await c.reconcile(e.details.request, { sentAt: e.details.sentAt, waitMs: 0 }).catch((x) => x);
			expect(e2.code).toBe('not_charged');
			expect(h.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
		},
	);
});

describe('what proof costs on the happy path', () => {
	let env: Env;
	beforeAll(async () => {
		env = await startEnv('family');
	});
	afterAll(() => env.close());

	test('a purchase answered directly is one POST at the sandbox and nothing else', async () => {
		const seen: string[] = [];
		const onRequest = (m: unknown) => {
			const { method, url } = (m as { request: IncomingMessage }).request;
			seen.push(`${method} ${url}`);
		};
		const c = env.make({ reconcile: { sharedAccount: true } }); // the default settings of a shared account
		await c.quote({ product: 'data', network: 'MTN', plan: 3, phone: '08031230000' }); // the catalogue, fetched once
		subscribe('http.server.request.start', onRequest);
		try {
			for (let i = 0; i < 12; i++) {
				const r = await c.buy(
					i % 2
						? { product: 'airtime', network: 'MTN', amount: 100, phone: phone(500 + i) }
						: { product: 'data', network: 'MTN', plan: 3, phone: phone(500 + i) },
				);
				expect(r.path).toBe('direct');
			}
		} finally {
			unsubscribe('http.server.request.start', onRequest);
		}
		expect(seen).toHaveLength(12);
		expect(seen.every((s) => /^POST \/api\/(data|topup)\/$/.test(s))).toBe(true);
	});
});
