/**
 * CI copy of the storefront chaos lane (bench/chaos-storefront.ts), seeded and small: customers fund and
 * buy through storefront instances in child processes, two on one Postgres database (when a postgres
 * binary exists) and one on SQLite, with webhooks replayed, sent to both instances at once, delayed,
 * reordered and forged, vendor faults, late vendor refunds and two-phone orders. Audited against both
 * sandboxes' own books: nothing credited twice, no wallet below zero, every failed vendor order refunded
 * once, every vendor debit an order's, store's audit() clean.
 */
import { lastLine, runStorefrontChaos, type RunStats } from '../../bench/chaos-storefront';
import { backendNames } from '../store/backends';

jest.setTimeout(240_000);

let runs: RunStats[];
beforeAll(async () => {
	runs = await runStorefrontChaos({ seed: 2, customers: 5, orders: 3, faultRate: 0.4, backends: backendNames() });
});

test('no double credit, no overspend, no lost refund, and the books balance', () => {
	for (const r of runs) expect(r.audit.problems).toEqual([]);
	const { line, ok } = lastLine(runs);
	const sum = (f: (r: RunStats) => number) => runs.reduce((s, r) => s + f(r), 0);
	expect(line).toBe(
		`storefront: ${sum((r) => r.customers)} customers, ${sum((r) => r.payments)} payments, ` +
			`${sum((r) => r.orders)} orders, 0 double credits, 0 overspends, 0 lost refunds, books balance`,
	);
	expect(ok).toBe(true);
});

test('the lane did what it says: money came in, orders ran into faults, refunds and forgeries happened', () => {
	for (const r of runs) {
		expect(r.payments).toBeGreaterThan(0);
		expect(r.webhookDeliveries).toBeGreaterThan(r.payments); // replays, both instances, forged copies
		expect(r.forgeries).toBeGreaterThan(0);
		expect(r.audit.paidIn).toBeGreaterThan(0);
		expect(r.audit.ordersByState.settled).toBeGreaterThan(0);
		// every failed vendor record was refunded to its order (lostRefunds 0 above), and there were some
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
