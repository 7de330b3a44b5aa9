/**
 * CI copy of the multi-actor chaos lane (bench/chaos-actors.ts), seeded and small: two actor processes
 * (two clients each) and the bot in a child process, killed before one POST and after another and
 * restarted, all buying the same few identical orders under per-request faults. Audited from the
 * sandbox's tagged records and ledger: no order charged twice, none lost, none reported with a record
 * that is not its own.
 */
import { runActors, type ActorsReport } from '../../bench/chaos-actors';

jest.setTimeout(240_000);

let r: ActorsReport;
beforeAll(async () => {
	r = await runActors({ actors: 2, purchases: 8, botOrders: 5, seed: 4, faultRate: 0.5 });
});

test('no double charge, nothing lost, no false success (sandbox ledger audit)', () => {
	expect(r.problems).toEqual([]);
	expect(r.lastLine).toBe(
		`chaos: ${r.purchases} purchases, ${r.faults} faults, 0 double charges, 0 lost, 0 false successes, ` +
			`0 false not-charged, ` +
			`${r.unknownOutcomes} unknown (${r.resolved} resolved)`,
	);
});

test('the lane did what it says: the bot was killed twice and recovered, answers were lost and reconciled', () => {
	expect(r.botCrashes).toBe(2);
	expect(r.purchases).toBeGreaterThanOrEqual(2 * 8 + 3); // actors' orders + the bot's placed orders
	expect(r.faults).toBeGreaterThan(5);
	expect(r.records).toBeGreaterThan(8);
	const labels = Object.keys(r.outcomes);
	expect(labels).toEqual(
		expect.arrayContaining(['successful (direct)', 'successful (reconciled)', 'successful (bot)']),
	);
});
