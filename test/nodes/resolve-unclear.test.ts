/**
 * Unclear purchases settled later: a buying node's unknown_outcome item (Continue On Fail) carries its
 * request and sentAt; VTU Transaction → Resolve Unclear Purchase answers bought / not bought / still unclear
 * without ever buying. Real n8n engine (WorkflowExecute) against the sandbox.
 */
import { VtuAirtime } from '../../nodes/VtuAirtime/VtuAirtime.node';
import { VtuBulkSms } from '../../nodes/VtuBulkSms/VtuBulkSms.node';
import { VtuTransaction } from '../../nodes/VtuTransaction/VtuTransaction.node';
import type { IDataObject } from 'n8n-workflow';
import { VtuClient } from '../../client';
import { rawBuy } from '../client/helpers';
import { type Creds, runNode } from './engine';
import { expectNoToken, useVtuSandbox } from './helpers';

const env = useVtuSandbox();
const airtime = new VtuAirtime();
const transaction = new VtuTransaction();
const sms = new VtuBulkSms();
const RESOLVE = { operation: 'resolveUnclear', unclearRequest: '={{ $json.request }}', sentAt: '={{ $json.sentAt }}' };

/** The credential's switches as n8n hands them to the node. */
const withSwitches = (creds: Creds, switches: IDataObject): Creds => ({ ...creds, ...switches }) as Creds;

async function debits(): Promise<number> {
	return (await env.admin.ledger('demo')).filter((l) => l.kind === 'debit').length;
}

/** One airtime purchase whose answer is lost after the charge, on a token other buyers may use. */
async function unclearAirtime(phone: string): Promise<IDataObject> {
	await env.admin.addFault({ endpoint: 'POST /api/topup/', kind: 'reset_after', count: 1 });
	const r = await runNode(airtime, {
		parameters: { operation: 'buy', network: 'MTN', amount: 100, phone },
		creds: env.creds(),
		continueOnFail: true,
	});
	const item = r.items[0].json;
	expect(item).toMatchObject({ code: 'unknown_outcome', outcome: 'check later' });
	return item;
}

describe('Resolve Unclear Purchase', () => {
	test(
		"the record is there and the account is this workflow's alone: bought, with the record; nothing " + 'bought again',
		async () => {
			const unclear = await unclearAirtime('08031239901');
			const [record] = await env.admin.transactions({ username: 'demo', product: 'airtime' });
			const before = await debits();
			const r = await runNode(transaction, {
				parameters: RESOLVE,
				input: [unclear],
				creds: withSwitches(env.creds(), { sharedAccount: false }),
			});
			expect(r.error).toBeUndefined();
			expect(r.items[0].json).toMatchObject({
				resolution: 'bought',
				status: 'successful',
				ident: record.ident,
				recipient: '08031239901',
				sentAt: unclear.sentAt,
			});
			expect(r.items[0].pairedItem).toEqual({ item: 0 });
			expect(await debits()).toBe(before);
		},
	);

	test("the record may be another buyer's: still unclear, with the candidate and when to try again", async () => {
		const unclear = await unclearAirtime('08031239902');
		const r = await runNode(transaction, { parameters: RESOLVE, input: [unclear], creds: env.creds() });
		const j = r.items[0].json;
		expect(j).toMatchObject({ resolution: 'still_unclear', request: unclear.request, sentAt: unclear.sentAt });
		expect(Date.parse(String(j.tryAgainAfter))).toBeGreaterThan(Date.now());
		expect(j.candidates).toEqual([
			expect.objectContaining({ recipient: '08031239902', status: 'successful', reference: expect.any(String) }),
		]);
		expectNoToken(env.sb.demo.token, r.items);
	});

	test("no record in the whole window, long past the vendor's processing time: not bought (proven)", async () => {
		const unclear = await unclearAirtime('08031239903');
		// the same request for a number nothing was bought for, sent long ago
		const never = {
			...unclear,
			request: { ...(unclear.request as IDataObject), phone: '08031239999' },
			sentAt: new Date(Date.now() - 30 * 60_000).toISOString(),
		};
		const before = await debits();
		const r = await runNode(transaction, { parameters: RESOLVE, input: [never], creds: env.creds() });
		expect(r.items[0].json).toMatchObject({ resolution: 'not_bought', request: { phone: '08031239999' } });
		expect(await debits()).toBe(before);
	});

	test(
		'an item that is not an unclear purchase: invalid_input that says what to pass, nothing read or ' + 'bought',
		async () => {
			const r = await runNode(transaction, {
				parameters: RESOLVE,
				input: [{ phone: '0803' }, { request: { product: 'airtime' }, sentAt: 'yesterday' }],
				creds: env.creds(),
				continueOnFail: true,
			});
			expect(r.items.map((i) => i.json.code)).toEqual(['invalid_input', 'invalid_input']);
			expect(String(r.items[0].json.hint)).toMatch(/unknown_outcome item of a buying node/);
			expect(String(r.items[1].json.error)).toMatch(/Sent At "yesterday" is not a date and time/);
		},
	);

	test(
		'a campaign request with a lost answer: check later (apart from charged, not in rejected.csv), ' +
			'then resolved from the summary',
		async () => {
			await env.admin.addFault({ endpoint: 'POST /api/sendsms/', kind: 'reset_after', count: 1 });
			const r = await runNode(sms, {
				parameters: {
					operation: 'send',
					sender: 'Shop',
					message: 'Sale today',
					recipients: '08031234567, 08061234567, 12',
				},
				creds: env.creds(),
			});
			expect(r.error).toBeUndefined();
			const s = r.items[0].json;
			expect(s).toMatchObject({ unknownOutcome: 2, sent: 0, chargedKobo: 0, unclearKobo: s.costKobo });
			expect(String(s.summary)).toMatch(/charged ₦0\.00 \+ ₦[\d.]+ unclear \(check later, do not resend\)$/);
			expect(r.items[0].binary?.rejected).toBeDefined(); // the invalid "12" only
			expect(Buffer.from(r.items[0].binary!.rejected.data, 'base64').toString()).not.toContain('0803');
			expect(Buffer.from(r.items[0].binary!.checkLater.data, 'base64').toString()).toContain(
				'08061234567,unknown outcome',
			);
			const unclear = s.unclearRequests as IDataObject[];
			expect(unclear).toHaveLength(1);
			const resolved = await runNode(transaction, {
				parameters: RESOLVE,
				input: unclear,
				creds: withSwitches(env.creds(), { sharedAccount: false }),
			});
			expect(resolved.items[0].json).toMatchObject({ resolution: 'bought', product: 'sms' });
		},
	);
});

describe('Resolve Unclear Purchase with the customer reference (credential: Send Client Reference)', () => {
	beforeEach(() => env.admin.setConfig({ customer_ref: true })); // the site stores and echoes customer_ref

	/** Bought with a reference, answer lost after the charge, the history unreadable meanwhile: unclear. */
	async function unclearWithRef(phone: string): Promise<IDataObject> {
		await env.admin.addFault({ endpoint: 'POST /api/topup/', kind: 'reset_after', count: 1 });
		const reads = await env.admin.addFault({ endpoint: 'GET /api/topup/', kind: 'error_before' });
		const r = await runNode(airtime, {
			parameters: { operation: 'buy', network: 'MTN', amount: 100, phone },
			creds: withSwitches(env.creds(), { customerRef: true }),
			continueOnFail: true,
		});
		await env.admin.removeFault(reads.id);
		const item = r.items[0].json;
		expect(item).toMatchObject({ code: 'unknown_outcome', outcome: 'check later' });
		return item;
	}

	test("the item's customerRef is read by default: its own record beside another buyer's identical one", async () => {
		const unclear = await unclearWithRef('08031239911');
		expect(unclear.customerRef).toMatch(/^[\w-]{16}$/);
		const mine = (await env.admin.transactions({ username: 'demo', product: 'airtime' })).filter(
			(t) => t.customerRef === unclear.customerRef,
		);
		expect(mine).toHaveLength(1);
		// another buyer of the token buys the identical airtime, without a reference
		const other = new VtuClient({ baseUrl: env.sb.baseUrl, token: env.sb.demo.token });
		const twin = await rawBuy(other, env.sb.demo.token, unclear.request as never);
		const creds = withSwitches(env.creds(), { customerRef: true }); // Other Buyers Use This Token: on (default)
		const before = await debits();

		// without the reference the two cannot be told apart
		const blind = await runNode(transaction, { parameters: { ...RESOLVE, customerRef: '' }, input: [unclear], creds });
		expect(blind.items[0].json).toMatchObject({ resolution: 'still_unclear' });
		expect(blind.items[0].json).not.toHaveProperty('customerRef');
		const seen = (blind.items[0].json.candidates as IDataObject[]).map((c) => c.id);
		expect(seen).toEqual(expect.arrayContaining([mine[0].id, twin]));

		// Customer Reference left at its default reads the item's customerRef: the record carrying it
		const r = await runNode(transaction, { parameters: RESOLVE, input: [unclear], creds });
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toMatchObject({
			resolution: 'bought',
			id: mine[0].id,
			ident: mine[0].ident,
			customerRef: unclear.customerRef,
		});
		expect(await debits()).toBe(before);
		expectNoToken(env.sb.demo.token, r.items);
	});

	test('on the error output the reference is inside "error"; a malformed one is refused', async () => {
		const unclear = await unclearWithRef('08031239912');
		const creds = withSwitches(env.creds(), { customerRef: true });
		const onErrorOutput = { error: { ...unclear, message: unclear.error } };
		const parameters = { operation: 'resolveUnclear' }; // every field at its default
		const r = await runNode(transaction, { parameters, input: [onErrorOutput], creds });
		expect(r.items[0].json).toMatchObject({ resolution: 'bought', customerRef: unclear.customerRef });
		const bad = await runNode(transaction, {
			parameters: { ...RESOLVE, customerRef: 'two words' },
			input: [unclear],
			creds,
			continueOnFail: true,
		});
		expect(bad.items[0].json).toMatchObject({ code: 'invalid_input' });
		expect(String(bad.items[0].json.error)).toMatch(/Customer Reference "two words" is not a customer_ref/);
	});
});
