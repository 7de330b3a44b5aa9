/**
 * findExisting (client/existing.ts) against the in-process sandbox: one record per request, failed records
 * ignored; on a site that ignores ?search=, the list is read back to the window's start (once per check).
 */
import { findExisting } from '../../client/existing';
import type { PurchaseRequest } from '../../client';
import { rawBuy, startEnv, type Env } from './helpers';

const data = (phone: string, plan = 2): PurchaseRequest => ({ product: 'data', network: 'MTN', plan, phone });
const sequential = async (n: number, read: (k: number) => Promise<void>) => {
	for (let k = 0; k < n; k++) await read(k);
};

describe('findExisting', () => {
	let env: Env;
	beforeAll(async () => {
		env = await startEnv('seed');
	});
	afterAll(() => env.close());

	test(
		'identical requests share the matching records one each; new and refunded ones are not found; ' + 'nothing is sent',
		async () => {
			const since = Date.now() - 60_000;
			const buyer = env.make();
			const a1 = await buyer.buy(data('08031230001'));
			const a2 = await buyer.buy(data('08031230001'));
			const b = await buyer.buy(data('08031230002'));
			const refunded = await buyer.buy(data('08031230004'));
			await env.admin.setStatus('data', refunded.id!, 'failed');

			// a fresh client, as a retried execution has: it knows none of these records
			const checker = env.make();
			env.counting.reset();
			const requests = new Map<number, PurchaseRequest>([
				[0, data('08031230001')],
				[1, data('08031230002')],
				[2, data('08031230001')],
				[3, data('08031230001')], // a third identical order: only two records exist
				[4, data('08031230003')], // never bought
				[5, data('08031230002', 3)], // same phone, other plan
				[6, data('08031230004')], // bought, then failed and refunded
			]);
			const { found, unchecked } = await findExisting(checker, requests, since, sequential);
			expect(unchecked.size).toBe(0);
			expect([...found.keys()].sort()).toEqual([0, 1, 2]);
			expect([found.get(0)!.id, found.get(2)!.id]).toEqual([a1.id, a2.id]);
			expect(found.get(1)!.id).toBe(b.id);
			expect(env.counting.posts()).toHaveLength(0);
		},
	);

	// the site's clock offset is known here (learned from the purchases above, shared per base URL)
	test('records created before the window are not found', async () => {
		await env.make().buy(data('08031230005'));
		const { found } = await findExisting(
			env.make(),
			new Map([[0, data('08031230005')]]),
			Date.now() + 10 * 60_000,
			sequential,
		);
		expect(found.size).toBe(0);
	});
});

describe('findExisting on a site that ignores ?search= (family dialect): reads the list back to the window', () => {
	let env: Env;
	beforeAll(async () => {
		env = await startEnv('family');
	});
	afterAll(() => env.close());
	const listReads = () =>
		env.counting.requests.filter((r) => r.method === 'GET' && r.url.endsWith('/api/data/')).length;

	test(
		"the first run's purchases are found under more than 3 pages of other buyers' records; the list " + 'is read once',
		async () => {
			const since = Date.now() - 60_000;
			const firstRun = env.make();
			const a = await firstRun.buy(data('08031230001'));
			const b = await firstRun.buy(data('08031230002'));
			// other buyers of the account (another process: no client here knows these records): 4 pages on top
			for (let i = 0; i < 60; i++) await rawBuy(env.client, env.sb.demo.token, data(`0806${String(5000000 + i)}`));

			const retry = env.make();
			env.counting.reset();
			const requests = new Map<number, PurchaseRequest>([
				[0, data('08031230001')],
				[1, data('08031230002')],
				[2, data('08031230003')], // never bought
			]);
			const { found, unchecked } = await findExisting(retry, requests, since, sequential);
			expect(unchecked.size).toBe(0);
			expect(found.get(0)!.id).toBe(a.id);
			expect(found.get(1)!.id).toBe(b.id);
			expect(found.has(2)).toBe(false);
			expect(listReads()).toBe(5); // 62 records, all inside the window: pages 1-5, once for the three requests
			expect(env.counting.posts()).toHaveLength(0);
		},
	);

	test('reading stops at the first page that reaches records older than the window', async () => {
		env.counting.reset();
		const { found } = await findExisting(
			env.make(),
			new Map([[0, data('08031230001')]]),
			Date.now() + 10 * 60_000,
			sequential,
		);
		expect(found.size).toBe(0);
		expect(listReads()).toBe(1);
	});

	test(
		'more records inside the window than readBackPages holds: unknown_outcome for every request, ' + 'nothing bought',
		async () => {
			env.counting.reset();
			const checker = env.make({ reconcile: { readBackPages: 2 } });
			const { found, unchecked } = await findExisting(
				checker,
				new Map([
					[0, data('08031230001')],
					[1, data('08031230009')],
				]),
				Date.now() - 60_000,
				sequential,
			);
			expect(found.size).toBe(0);
			expect([...unchecked.keys()]).toEqual([0, 1]);
			expect(unchecked.get(0)!.code).toBe('unknown_outcome');
			expect(unchecked.get(0)!.message).toMatch(
				/more than 30 data records since .+ \(2 pages\)\. Nothing was bought for it/,
			);
			expect(listReads()).toBe(2);
			expect(env.counting.posts()).toHaveLength(0);
		},
	);
});
