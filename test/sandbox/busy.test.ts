/**
 * Busy account: other buyers create records on the same account from a timer inside the sandbox, so the
 * lists scroll; bounded by count and time; stopped by the admin API and by reset.
 */
import { eventually, MTN_1GB_SME, useSandbox } from './helpers';

describe.each(['seed', 'family'] as const)('busy account (%s dialect)', (dialect) => {
	const env = useSandbox({ dialect, seed: 5 });

	test('creates records at the asked rate until maxRecords, debited from the wallet, tagged busy', async () => {
		const before = await env.admin.balanceKobo('demo');
		const started = await env.admin.startBusy({ rate: 200, maxRecords: 40 });
		expect(started).toMatchObject({ running: true, username: 'demo', rate: 200, maxRecords: 40, created: 0 });
		await eventually(
			async () =>
				expect(await env.admin.busy()).toMatchObject({ running: false, stoppedReason: 'max_records', created: 40 }),
			20_000,
		);
		const txns = await env.admin.transactions({ username: 'demo' });
		expect(txns).toHaveLength(40);
		expect(txns.every((t) => t.tag === 'busy' && t.Status === 'successful')).toBe(true);
		expect(new Set(txns.map((t) => t.product)).size).toBeGreaterThan(2);
		const debits = (await env.admin.ledger('demo')).filter((e) => e.kind === 'debit');
		expect(debits).toHaveLength(40);
		const spent = txns.reduce((s, t) => s + t.amountKobo, 0);
		expect(await env.admin.balanceKobo('demo')).toBe(before - spent);
		// the merchant API lists them like any purchase (newest first, 15 per page)
		const dataCount = txns.filter((t) => t.product === 'data').length;
		const page = await env.get('/api/data/');
		expect(page.json.count).toBe(dataCount);
		// the tag is admin-only
		expect(page.text).not.toContain('busy');
	});

	test("mirrored records copy another buyer's purchase: same product, recipient, plan and amount", async () => {
		const mine = await env.post('/api/data/', MTN_1GB_SME);
		expect(mine.status).toBe(201);
		await env.admin.startBusy({ rate: 200, maxRecords: 6, mirrorShare: 1 });
		await eventually(
			async () => expect(await env.admin.busy()).toMatchObject({ running: false, created: 6, mirrored: 6 }),
			20_000,
		);
		const copies = (await env.admin.transactions({ product: 'data' })).filter((t) => t.tag === 'busy');
		expect(copies).toHaveLength(6);
		for (const c of copies) expect(c).toMatchObject({ recipient: MTN_1GB_SME.mobile_number, amountKobo: 250_00 });
		const list = await env.get('/api/data/');
		expect(
			list.json.results.filter((r: { mobile_number: string }) => r.mobile_number === MTN_1GB_SME.mobile_number),
		).toHaveLength(7);
	});

	test('stops on DELETE /admin/busy, on its duration bound and on reset', async () => {
		await env.admin.startBusy({ rate: 50, maxRecords: 1_000_000 });
		await eventually(async () => expect((await env.admin.busy()).created).toBeGreaterThan(2), 20_000);
		const stopped = await env.admin.stopBusy();
		expect(stopped).toMatchObject({ running: false, stoppedReason: 'stopped' });
		// stop is synchronous: every busy record that exists was counted, and none comes after
		const n = (await env.admin.transactions()).length;
		expect(n).toBe(stopped.created);
		await env.post('/api/data/', MTN_1GB_SME);
		expect((await env.admin.transactions()).length).toBe(n + 1);

		await env.admin.startBusy({ rate: 1000, durationMs: 100 });
		await eventually(
			async () => expect(await env.admin.busy()).toMatchObject({ running: false, stoppedReason: 'duration' }),
			20_000,
		);
		expect((await env.admin.busy()).created).toBeLessThanOrEqual(100);

		await env.admin.startBusy({ rate: 50 });
		await env.admin.reset();
		expect(await env.admin.busy()).toMatchObject({ running: false, stoppedReason: 'reset' });
	});

	test('a wallet that cannot pay: draws are skipped, nothing goes negative', async () => {
		await env.admin.createUser({ username: 'poor', balance: '100.00' });
		await env.admin.startBusy({ rate: 200, maxRecords: 30, username: 'poor' });
		await eventually(async () => expect((await env.admin.busy()).running).toBe(false), 20_000);
		const s = await env.admin.busy();
		expect(s.created + s.skipped).toBe(30);
		expect(s.skipped).toBeGreaterThan(0);
		expect(await env.admin.balanceKobo('poor')).toBeGreaterThanOrEqual(0);
	});

	test('bad specs are refused with 400/404', async () => {
		await expect(env.admin.startBusy({ rate: 0 })).rejects.toMatchObject({ status: 400 });
		await expect(env.admin.startBusy({ rate: 5, username: 'nobody' })).rejects.toMatchObject({ status: 404 });
	});
});

describe("family dialect: ?search= is ignored, so a busy list scrolls the client's record away", () => {
	const env = useSandbox({ dialect: 'family', seed: 6 });

	test("the client's record falls off page 1 and search does not bring it back", async () => {
		const mine = await env.post('/api/data/', MTN_1GB_SME);
		await env.admin.startBusy({ rate: 500, maxRecords: 200, mirrorShare: 0 });
		await eventually(async () => expect((await env.admin.busy()).running).toBe(false), 20_000);
		const searched = await env.get(`/api/data/?search=${mine.json.id}`);
		expect(searched.json.results.map((r: { id: number }) => r.id)).not.toContain(mine.json.id);
		expect(searched.json.count).toBeGreaterThan(15);
	});
});
