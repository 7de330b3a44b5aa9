/**
 * CI copy of the storefront chaos lane through real bots (bench/chaos-storefront-bots.ts), seeded and small:
 * storefront bots in child processes in Telegram webhook mode on one local Bot API, two on one Postgres
 * database (when a postgres binary exists) and one on SQLite; customers /start, fund through the payment
 * sandbox (webhooks replayed, sent to both instances at once, delayed, reordered and forged) and buy with
 * /data and /airtime and the Confirm tap (a quarter double-tapped on both instances), vendor faults and late
 * refunds. Audited against both sandboxes' own books and what the customers were told.
 */
import { lastLine, type RunStats } from '../../bench/chaos-storefront';
import { runBotStorefrontChaos } from '../../bench/chaos-storefront-bots';
import { backendNames } from '../store/backends';

jest.setTimeout(240_000);

let runs: RunStats[];
beforeAll(async () => {
	runs = await runBotStorefrontChaos({ seed: 3, customers: 6, orders: 3, faultRate: 0.4, backends: backendNames() });
});

test('through the bots: no double credit, no overspend, no lost refund, the books balance, told once', () => {
	for (const r of runs) expect(r.audit.problems).toEqual([]);
	const { line, ok } = lastLine(runs);
	const sum = (f: (r: RunStats) => number) => runs.reduce((s, r) => s + f(r), 0);
	expect(line).toBe(
		`storefront: ${sum((r) => r.customers)} customers, ${sum((r) => r.payments)} payments, ` +
			`${sum((r) => r.orders)} orders, 0 double credits, 0 overspends, 0 lost refunds, books balance`,
	);
	expect(ok).toBe(true);
});

test('the customers really went through the bots: orders confirmed, faults met, refunds and forgeries seen', () => {
	for (const r of runs) {
		expect(r.skippedFlows).toEqual([]);
		expect(r.payments).toBeGreaterThan(0);
		expect(r.webhookDeliveries).toBeGreaterThan(r.payments);
		expect(r.forgeries).toBeGreaterThan(0);
		expect(r.audit.ordersByState.settled).toBeGreaterThan(0);
		expect(r.audit.vendorFailed).toBeGreaterThan(0);
		expect(r.audit.refunded).toBeGreaterThan(0);
		expect(r.audit.parked).toBeGreaterThan(0);
		if (r.backend === 'postgres') {
			expect(r.instances).toBe(2);
			expect(r.twoPhonePairs).toBeGreaterThan(0);
		}
	}
	expect(runs.map((r) => r.backend)).toEqual(backendNames());
});
