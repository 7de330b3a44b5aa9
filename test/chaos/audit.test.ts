/**
 * The multi-actor audit's classification (bench/chaos-actors.ts audit): what counts as a false not-charged,
 * a false success, a lost order, and that the busy account's other buyers' records are nobody's loss.
 */
import { audit, summaryLine } from '../../bench/chaos-actors';
import type { AdminTxn } from '../../sandbox/admin-client';

const txn = (id: number, tag: string, product: AdminTxn['product'] = 'data'): AdminTxn => ({
	product,
	id,
	ident: `Data${id}`,
	username: 'chaos',
	Status: 'successful',
	amountKobo: 250_00,
	recipient: '08031110006',
	created: '2026-01-01T00:00:00.000000',
	customerRef: null,
	tag,
});

test('not_charged with a debited record of the order is a false not-charged, not "lost"', () => {
	const r = audit([{ id: 'a0-1', kind: 'error', code: 'not_charged', candidates: [] }], [txn(7, 'a0-1')], ['data|7']);
	expect([r.falseNotCharged, r.lost, r.falseSuccesses, r.doubleCharges]).toEqual([1, 0, 0, 0]);
	expect(r.problems[0]).toMatch(/^FALSE NOT-CHARGED a0-1: .*data#7/);
});

test('a proven not_charged (no record) and a result naming its own record are fine', () => {
	const r = audit(
		[
			{ id: 'a0-1', kind: 'error', code: 'not_charged', candidates: [] },
			{ id: 'a0-2', kind: 'result', record: 8, status: 'successful', path: 'reconciled', later: true, resolved: true },
		],
		[txn(8, 'a0-2')],
		['data|8'],
	);
	expect(r.problems).toEqual([]);
	expect(r.outcomes).toEqual({ not_charged: 1, 'successful (reconciled) [resolved later]': 1 });
});

test("a result naming another order's record is a false success; two debited records a double charge", () => {
	const r = audit(
		[
			{ id: 'a0-1', kind: 'result', record: 9, status: 'successful', path: 'reconciled' },
			{ id: 'a1-1', kind: 'result', record: 9, status: 'successful', path: 'direct' },
			{ id: 'a2-1', kind: 'result', record: 11, status: 'successful', path: 'retried' },
		],
		[txn(9, 'a1-1'), txn(10, 'a2-1'), txn(11, 'a2-1')],
		['data|9', 'data|10', 'data|11'],
	);
	// a0-1's claim on a1-1's record; a2-1 charged twice
	expect([r.falseSuccesses, r.doubleCharges, r.lost]).toEqual([1, 1, 0]);
});

test(
	"unknown_outcome: its candidates must hold its record; the busy buyers' records belong to no " +
		'order and are no loss',
	() => {
		const r = audit(
			[
				{ id: 'a0-1', kind: 'error', code: 'unknown_outcome', candidates: [3, 4] },
				{ id: 'a0-2', kind: 'error', code: 'unknown_outcome', candidates: [3], later: true },
			],
			[txn(3, 'busy'), txn(4, 'a0-1'), txn(5, 'a0-2'), txn(6, 'busy')],
			['data|3', 'data|4', 'data|5', 'data|6'],
		);
		expect([r.lost, r.unknownOutcomes, r.falseNotCharged]).toEqual([1, 2, 0]);
		expect(r.problems).toEqual([
			expect.stringMatching(/^LOST a0-2: unknown_outcome with candidates \[3\] missing its record\(s\) 5$/),
		]);
	},
);

test("summary line: the issue's exact format", () => {
	expect(
		summaryLine({
			purchases: 40,
			faults: 9,
			doubleCharges: 0,
			lost: 0,
			falseSuccesses: 0,
			falseNotCharged: 0,
			unknownOutcomes: 5,
			resolved: 3,
		}),
	).toBe(
		'chaos: 40 purchases, 9 faults, 0 double charges, 0 lost, 0 false successes, 0 false ' +
			'not-charged, 5 unknown (3 resolved)',
	);
});
