/**
 * Wallet history rows in the shapes the family's server writes them (docs/real-sites.md §10): strings for
 * money, the refund row's doubled balances, a funding row without balances, one page or a bare list.
 * Parsing only: the route itself is tested against the sandbox over HTTP in test/client/wallet.test.ts.
 */
import { parseWalletBody, parseWalletRow } from '../../client/wallet';

const debit = {
	ident: '152463871a2b3c4d',
	product: 'MTN 1.0GB   N239.0  DATA topup  with 08039343682 ',
	amount: '239.0',
	previous_balance: '1000.0',
	after_balance: '761.0',
	create_date: '2026-02-04T17:34:29.451977',
};

test('a data debit: integer kobo, direction from the balances, the text kept as written (trimmed)', () => {
	expect(parseWalletRow(debit)).toMatchObject({
		ident: '152463871a2b3c4d',
		text: 'MTN 1.0GB   N239.0  DATA topup  with 08039343682',
		amount: { kobo: 23900, naira: '239.00' },
		balanceBefore: { kobo: 100000 },
		balanceAfter: { kobo: 76100 },
		direction: 'debit',
		refund: false,
		createdAt: '2026-02-04T17:34:29.451977',
	});
});

test("the data refund row's balances are both too high by the amount: still read as a credit and a refund", () => {
	const r = parseWalletRow({
		...debit,
		product: 'FAILED DATA TOPUP REFUND for MTN 1.0GB   N239.0  with 08039343682 ',
		previous_balance: '1000.0',
		after_balance: '1239.0',
	});
	expect(r).toMatchObject({ direction: 'credit', refund: true, amount: { kobo: 23900 } });
});

test('a funding row without an after balance: direction from its words', () => {
	const r = parseWalletRow({ ...debit, product: 'Airtime  share Funding', previous_balance: '', after_balance: null });
	expect(r).toMatchObject({ direction: 'credit', balanceBefore: null, balanceAfter: null, refund: false });
});

test('a row of unknown words and equal balances says nothing about its direction', () => {
	expect(parseWalletRow({ ...debit, product: 'Transaction', after_balance: '1000.0' }).direction).toBeNull();
});

test('bare list and DRF page; an unreadable row makes the page say so', () => {
	expect(parseWalletBody([debit, debit])).toMatchObject({ paginated: false, next: null, count: null });
	const page = parseWalletBody({ count: 31, next: 'https://x.example/api/Wallet_summary/?page=3', results: [debit] });
	expect(page).toMatchObject({ paginated: true, next: 3, count: 31 });
	expect(parseWalletBody({ results: [debit, { amount: 'ten' }] })).toMatchObject({ unreadable: true });
	expect(() => parseWalletBody({ results: [{ amount: 'ten' }] })).toThrow(/could be read/);
	expect(() => parseWalletBody({ detail: 'x' })).toThrow(/unexpected shape/);
});
