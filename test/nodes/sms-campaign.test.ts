/** VTU Bulk SMS campaign rules without a site: send window (Lagos time), campaign grouping of history rows. */
import { money } from '../../client/money';
import type { SmsBatch } from '../../client/types';
import { groupCampaigns, inSendWindow, planCampaign } from '../../nodes/VtuBulkSms/campaign';

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
    ident, sender, message, recipients: ['08031234567', '08061234567'], pages: 1, amount: money(360), dnd: false, createdAt: at,
  });
  const rows = [
    b('s5', 'Shop', '2026-11-22 10:20:00', 'Hi Bayo'),
    b('s4', 'Shop', '2026-11-22 10:19:00', 'Hi Ada'),
    b('s3', 'Other', '2026-11-22 10:18:00'),
    b('s2', 'Shop', '2026-11-22 09:00:00'),
    b('s1', 'Shop', '2026-11-22 08:55:00'),
  ];
  expect(groupCampaigns(rows).map((g) => [g.campaignId, g.batches, g.recipients, g.messages, g.amountKobo])).toEqual([
    ['s4', 2, 4, 2, 720], ['s3', 1, 2, 1, 360], ['s1', 2, 4, 1, 720],
  ]);
});

test('planning: batches hold one message and at most batchSize numbers; cost = numbers × pages × rate', () => {
  const c = planCampaign(
    [
      { numbers: ['08031234567', '08061234567', '08051234567'], message: 'Sale', name: null },
      { numbers: ['08031234567'], message: 'Hi Ada', name: 'Ada' },
      { numbers: ['08061234567'], message: 'Sale', name: null },
    ],
    { sender: 'Shop', dnd: false, optOut: new Set(['08051234567']), batchSize: 1, rateKobo: 180 },
  );
  expect(c.batches.map((x) => [x.message, x.recipients.length])).toEqual([['Sale', 1], ['Sale', 1], ['Hi Ada', 1]]);
  expect(c.costKobo).toBe(3 * 180);
  expect(c.recipients.map((r) => r.status)).toEqual(['would send', 'would send', 'opted out', 'would send', 'duplicate']);
});
