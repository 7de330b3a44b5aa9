/** What a delivered order hands over: the token line, PIN lines, and the printable sheet (escaped HTML). */
import { deliveredLines, sheetOf, tokenOf } from '../../bot/delivery';
import { meterAmount } from '../../bot/features/electricity';
import { text } from './texts';

test('an electricity token comes first, with its units; other products hand over nothing', () => {
	const details = { token: '1234-5678-9012-3456-7890', units: '45.6 kWh', customerName: 'BOLA AHMED' };
	expect(deliveredLines('electricity', details)).toEqual([
		text('delivered-token', { token: '1234-5678-9012-3456-7890' }),
		text('delivered-units', { units: '45.6 kWh' }),
	]);
	expect(tokenOf('electricity', { token: '' })).toBeNull();
	expect(deliveredLines('electricity', { token: '' })).toEqual([]);
	expect(deliveredLines('cable', details)).toEqual([]);
	expect(deliveredLines('data', {})).toEqual([]);
});

test('PINs: one line each; the sheet escapes what the vendor sent and is absent without PINs', () => {
	const cards = [
		{ pin: '1111222233334444', serial: 'SN1', loadCode: '*555*1111222233334444#' },
		{ pin: '<b>5555</b>', serial: '', loadCode: '' },
		{ pin: '', serial: 'SN3', loadCode: '' }, // no PIN: nothing to print
	];
	expect(deliveredLines('recharge_card', { cards })).toEqual([
		text('delivered-card-serial', { n: 1, pin: '1111222233334444', serial: 'SN1' }),
		text('delivered-card', { n: 2, pin: '<b>5555</b>' }),
	]);
	const sheet = sheetOf({
		product: 'recharge_card',
		description: '2 × MTN ₦100.00',
		ref: 'R-1/2',
		details: { cards },
	})!;
	expect(sheet.name).toBe('recharge_cards-R-12.html');
	expect(sheet.html).toContain('<p>1111222233334444</p>');
	expect(sheet.html).toContain(`<p>${text('sheet-load', { code: '*555*1111222233334444#' })}</p>`);
	expect(sheet.html).toContain('<p>&lt;b&gt;5555&lt;/b&gt;</p>');
	expect(sheet.html).not.toContain('<b>5555');
	expect(sheet.html.match(/class="card"/g)).toHaveLength(2);
	expect(sheetOf({ product: 'exam_pin', description: 'x', ref: 'r', details: { pins: [] } })).toBeNull();
	expect(sheetOf({ product: 'electricity', description: 'x', ref: 'r', details: { token: '1' } })).toBeNull();
	expect(deliveredLines('exam_pin', { pins: ['123', ' ', 456] })).toEqual([
		text('delivered-pin', { n: 1, pin: '123' }),
		text('delivered-pin', { n: 2, pin: '456' }),
	]);
});

test("an electricity amount is read by the client's parser, then held to the product's bounds and the limit", () => {
	expect(meterAmount('1500', 500_000)).toEqual({ ok: true, value: 150_000 });
	expect(meterAmount('499.99', 500_000)).toEqual({
		ok: false,
		problem: text('electricity-too-small', { min: '₦500.00' }),
	});
	expect(meterAmount('5000.01', 500_000)).toEqual({
		ok: false,
		problem: text('electricity-too-large', { max: '₦5,000.00' }),
	});
	// the client's parser refuses the comma; the bot says it in the catalogue's words (refusalWords)
	expect(meterAmount('1,500', 500_000)).toEqual({
		ok: false,
		problem: text('input-amount-plain', { example: '1500' }),
	});
});
