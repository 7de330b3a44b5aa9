/** VTU Bulk SMS campaign rules without a site: send window (Lagos time), campaign grouping of history rows. */
import { money } from '../../client/money';
import type { SmsBatch } from '../../client/types';
import {
	checkLaterCsv,
	groupCampaigns,
	inSendWindow,
	planCampaign,
	rejectedCsv,
	repeatedNumbers,
	settle,
	summaryJson,
} from '../../nodes/VtuBulkSms/campaign';

test('send window in Lagos hours (UTC+1), wrapping past midnight; equal hours mean always', () => {
	const at = (utcHour: number) => new Date(Date.UTC(2026, 10, 22, utcHour, 30));
	expect(inSendWindow(at(7), 8, 20)).toBe(true); // 08:30 Lagos
	expect(inSendWindow(at(6), 8, 20)).toBe(false); // 07:30
	expect(inSendWindow(at(19), 8, 20)).toBe(false); // 20:30
	expect(inSendWindow(at(22), 22, 6)).toBe(true); // 23:30
	expect(inSendWindow(at(3), 22, 6)).toBe(true); // 04:30
	expect(inSendWindow(at(12), 22, 6)).toBe(false);
	expect(inSendWindow(at(12), 0, 0)).toBe(true);
});

test('campaign grouping: one sender and route, at most 10 minutes between neighbours; id = oldest ident', () => {
	const b = (ident: string, sender: string, at: string, message = 'Sale'): SmsBatch => ({
		ident,
		sender,
		message,
		recipients: ['08031234567', '08061234567'],
		pages: 1,
		amount: money(360),
		dnd: false,
		createdAt: at,
	});
	const rows = [
		b('s5', 'Shop', '2026-11-22 10:20:00', 'Hi Bayo'),
		b('s4', 'Shop', '2026-11-22 10:19:00', 'Hi Ada'),
		b('s3', 'Other', '2026-11-22 10:18:00'),
		b('s2', 'Shop', '2026-11-22 09:00:00'),
		b('s1', 'Shop', '2026-11-22 08:55:00'),
	];
	expect(groupCampaigns(rows).map((g) => [g.campaignId, g.batches, g.recipients, g.messages, g.amountKobo])).toEqual([
		['s4', 2, 4, 2, 720],
		['s3', 1, 2, 1, 360],
		['s1', 2, 4, 1, 720],
	]);
});

const rows = [
	{ numbers: ['08031234567', '08061234567', '08051234567'], message: 'Sale', name: null },
	{ numbers: ['08031234567'], message: 'Hi Ada', name: 'Ada' },
	{ numbers: ['08061234567'], message: 'Sale', name: null },
];

test(
	'planning: one text per number per campaign by default, personalised or not; duplicates name ' +
		'the row that texts them',
	() => {
		const c = planCampaign(rows, {
			sender: 'Shop',
			dnd: false,
			optOut: new Set(['08051234567']),
			batchSize: 1,
			rateKobo: 180,
		});
		expect(c.batches.map((x) => [x.message, x.recipients.length])).toEqual([
			['Sale', 1],
			['Sale', 1],
		]);
		expect(c.costKobo).toBe(2 * 180);
		expect(c.recipients.map((r) => [r.item + 1, r.status, r.reason])).toEqual([
			[1, 'would send', null],
			[1, 'would send', null],
			[1, 'opted out', 'on the opt-out list'],
			[2, 'duplicate', 'number already texted by row 1'],
			[3, 'duplicate', 'number already texted by row 1'],
		]);
		expect(repeatedNumbers(c)).toEqual([
			{ number: '08031234567', rows: [1, 2] },
			{ number: '08061234567', rows: [1, 3] },
		]);
		// the dry run says so
		const dry = summaryJson(c, false);
		expect(dry).toMatchObject({
			toSend: 2,
			duplicates: 2,
			duplicateNumbers: [
				{ number: '08031234567', rows: [1, 2] },
				{ number: '08061234567', rows: [1, 3] },
			],
		});
		expect(dry.duplicatesNote).toBe(
			'2 numbers appear in more than one row (e.g. 08031234567 in rows 1, 2): each number gets one ' +
				'text, the message of its first row.',
		);
	},
);

test('planning with Text Each Number Once off: only the same number with the same message is a duplicate', () => {
	const c = planCampaign(rows, {
		sender: 'Shop',
		dnd: false,
		optOut: new Set(['08051234567']),
		batchSize: 1,
		rateKobo: 180,
		oncePerNumber: false,
	});
	expect(c.batches.map((x) => [x.message, x.recipients.length])).toEqual([
		['Sale', 1],
		['Sale', 1],
		['Hi Ada', 1],
	]);
	expect(c.costKobo).toBe(3 * 180);
	expect(c.recipients.map((r) => r.status)).toEqual([
		'would send',
		'would send',
		'opted out',
		'would send',
		'duplicate',
	]);
	expect(c.recipients[4].reason).toBe('same number and message already texted by row 1');
	expect(String(summaryJson(c, false).duplicatesNote)).toMatch(/one text per different message/);
});

test(
	'an unclear request is "check later": charged total apart, never in rejected.csv, with what ' + 'resolving it needs',
	() => {
		const c = planCampaign(
			[
				{ numbers: ['08031234567', '08061234567'], message: 'Sale', name: null },
				{ numbers: ['08051234567'], message: 'Hi Bayo', name: 'Bayo' },
				{ numbers: ['12'], message: 'Sale', name: null },
			],
			{ sender: 'Shop', dnd: false, optOut: new Set(), batchSize: 5, rateKobo: 180 },
		);
		const [sale, bayo] = c.batches;
		Object.assign(sale, {
			status: 'successful',
			chargedKobo: 360,
			ident: 's1',
			id: 1,
			sentAt: '2026-11-24T10:00:00.000Z',
		});
		Object.assign(bayo, {
			status: 'unknown outcome',
			unclearKobo: 180,
			error: 'check later (unknown_outcome), do not resend: …',
			sentAt: '2026-11-24T10:00:01.000Z',
			resolvableAfter: '2026-11-24T10:03:01.000Z',
		});
		settle(c);
		const s = summaryJson(c, true);
		expect(s.summary).toBe(
			'2 sent + 0 duplicates + 1 invalid + 0 opted out + 1 unknown outcome = 4 rows; charged ₦3.60 + ' +
				'₦1.80 unclear (check later, do not resend)',
		);
		expect(s).toMatchObject({ chargedKobo: 360, unclearKobo: 180, unknownOutcome: 1, failedRequests: [] });
		expect(s.unclearRequests).toEqual([
			{
				request: { product: 'sms', sender: 'Shop', message: 'Hi Bayo', recipients: ['08051234567'], dnd: false },
				sentAt: '2026-11-24T10:00:01.000Z',
				resolvableAfter: '2026-11-24T10:03:01.000Z',
				rows: [2],
				numbers: 1,
				amount: '₦1.80',
			},
		]);
		expect(rejectedCsv(c).csv).toBe('row,name,number,status,reason\n3,,12,invalid,wrong length\n');
		expect(checkLaterCsv(c).csv).toBe(
			'row,name,number,status,reason\n2,Bayo,08051234567,unknown outcome,"check later ' +
				'(unknown_outcome), do not resend: …"\n',
		);
	},
);
