/**
 * A purchase run that stops without Continue On Fail (issue 25): n8n shows only the error of a node that
 * throws, so the error accounts for every row, and rows already bought are never lost in the throw. Real
 * n8n engine (WorkflowExecute) against the sandbox.
 */
import { VtuAirtime } from '../../nodes/VtuAirtime/VtuAirtime.node';
import { stopReport } from '../../nodes/shared/stopReport';
import { runNode, type RunOptions } from './engine';
import { useVtuSandbox } from './helpers';

const env = useVtuSandbox();
const airtime = new VtuAirtime();
const phones = ['08031230001', '08031230002', '08031230003', '08031230004'];

/** ₦100 MTN airtime for each input row's phone, with these options; run options (credential, mode) beside. */
function buyAirtime(input: Array<{ phone: string }>, options: object = {}, run: Partial<RunOptions> = {}) {
	const parameters = { operation: 'buy', network: 'MTN', amount: 100, phone: '={{$json.phone}}', options };
	return runNode(airtime, { parameters, input, creds: env.creds(), ...run });
}

describe('a run that stops', () => {
	test(
		'the wallet runs out at row 3: the error names the 2 rows bought (amount, reference), the ' +
			'failed row and the unsent one',
		async () => {
			const { token } = await env.admin.createUser({ username: 'stop1', balance: '250.00' });
			const input = phones.map((phone) => ({ phone }));
			const r = await buyAirtime(input, { concurrency: 1 }, { creds: { ...env.creds(), apiToken: token } });
			const bought = await env.admin.transactions({ username: 'stop1' });
			expect(bought.map((t) => t.recipient)).toEqual(phones.slice(0, 2));
			expect(r.error).toBeDefined();
			const { message, description } = r.error as { message: string; description?: string };
			const each = bought[0].amountKobo / 100;
			expect(message).toMatch(
				new RegExp(
					`^The run stopped: 2 of 4 rows bought \\(₦${(each * 2).toFixed(2)}\\), 1 not bought, 1 not sent\\. Row 3: `,
				),
			);
			expect(message).not.toMatch(/\[row 3\]$|\[item/);
			expect(description).toContain(
				`Bought, do not buy them again: row 1 (₦${each.toFixed(2)}, reference ${bought[0].ident}), ` +
					`row 2 (₦${each.toFixed(2)}, reference ${bought[1].ident}).`,
			);
			expect(description).toMatch(/Not bought: row 3: .*balance/i);
			expect(description).toContain('Not sent (the run stopped first): row 4.');
		},
	);

	test('several bad rows in a real run: one error lists them all and nothing is bought', async () => {
		const before = await env.balance();
		const r = await buyAirtime([{ phone: phones[0] }, { phone: 'abc' }, { phone: phones[1] }, { phone: '0805123' }]);
		const { message, description } = r.error as { message: string; description?: string };
		expect(message).toMatch(/^Nothing was bought: 2 of 4 rows cannot be bought \(rows 2, 4\)\. Row 2: Phone Number /);
		expect(description).toMatch(/^Not bought: row 2: Phone Number .*; row 4: Phone Number .*\./);
		expect(await env.balance()).toBe(before);
		expect(await env.admin.transactions({ username: env.sb.demo.username })).toHaveLength(0);
	});

	test('one bad row alone keeps its own error (the field and the row), nothing bought', async () => {
		const before = await env.balance();
		const r = await buyAirtime([{ phone: phones[0] }, { phone: 'abc' }]);
		expect((r.error as { message: string }).message).toMatch(/^Phone Number .*\[row 2\]$/);
		expect(await env.balance()).toBe(before);
	});

	test('over the Spend Cap: every row over it is listed and nothing is bought', async () => {
		const before = await env.balance();
		const r = await buyAirtime(
			phones.map((phone) => ({ phone })),
			{ spendCap: 250 },
		);
		const { message } = r.error as { message: string };
		expect(message).toMatch(/^Nothing was bought: 2 of 4 rows cannot be bought \(rows 3, 4\)\. Row 3: Not bought: /);
		expect(message).toContain('Spend Cap of ₦250.00');
		expect(await env.balance()).toBe(before);
	});

	test(
		'an unclear row stops the run: the error says unclear, do not buy again, and the rest were not ' + 'sent',
		async () => {
			await env.admin.addFault({ endpoint: 'POST /api/topup/', kind: 'reset_after', count: 1 });
			const r = await buyAirtime(
				phones.slice(0, 3).map((phone) => ({ phone })),
				{ concurrency: 1 },
			);
			const { message, description } = r.error as { message: string; description?: string };
			expect(message).toMatch(/^The run stopped: 0 of 3 rows bought, 1 unclear, 2 not sent\. Row 1: /);
			expect(description).toMatch(/Unclear, check later and do not buy them again .*: row 1: /);
			expect(description).toContain('Not sent (the run stopped first): rows 2, 3.');
			// the unclear row's purchase reached the site once; the others were never sent
			expect((await env.admin.transactions({ username: env.sb.demo.username })).map((t) => t.recipient)).toEqual([
				phones[0],
			]);
		},
	);

	test.each<[string, Partial<RunOptions>]>([
		['without Continue On Fail', {}],
		['with Continue On Fail', { continueOnFail: true }],
		['with the error output', { settings: { onError: 'continueErrorOutput' } }],
	])('a dry run %s: one summary lists every bad row, nothing bought', async (_name, mode) => {
		const before = await env.balance();
		const input = [{ phone: phones[0] }, { phone: 'abc' }, { phone: phones[1] }, { phone: '0805123' }];
		const r = await buyAirtime(input, { dryRun: true }, mode);
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(1);
		expect(r.items[0].json).toMatchObject({ dryRun: true, canRun: false, rows: 4, ready: 2, bad: 2 });
		expect((r.items[0].json.badRows as Array<{ row: number }>).map((b) => b.row)).toEqual([2, 4]);
		expect(await env.balance()).toBe(before);
	});
});

describe('the stop report', () => {
	const facts = {
		rows: 3,
		bought: [],
		refused: [],
		notSent: [2],
		reason: (e: unknown, i: number) => `${(e as Error).message} [row ${i + 1}]`,
		unclear: (e: unknown) => (e as { code?: string }).code === 'unknown_outcome',
	};
	const refusedBySite = Object.assign(new Error('Insufficient wallet balance.'), { code: 'insufficient_balance' });

	test('rows the site refused were sent: the report never says nothing was sent', () => {
		const r = stopReport({
			...facts,
			failed: [
				[0, refusedBySite],
				[1, refusedBySite],
			],
		});
		expect(r.message).toBe(
			'Nothing was bought: 2 of 3 rows not bought (rows 1, 2). Row 1: Insufficient wallet balance.',
		);
		expect(r.description).toBe(
			'Not bought: row 1: Insufficient wallet balance; row 2: Insufficient wallet balance. ' +
				'Not sent (the run stopped first): row 3.',
		);
	});

	test('rows refused before sending: nothing was sent for any row', () => {
		const r = stopReport({ ...facts, notSent: [1], failed: [], refused: [[0, new Error('Phone Number is blank.')]] });
		expect(r.message).toBe('Nothing was bought: 1 of 3 rows cannot be bought (row 1). Row 1: Phone Number is blank.');
		expect(r.description).toContain('Nothing was sent for any row');
	});
});
