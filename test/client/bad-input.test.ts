/**
 * Bad input never reaches the API: invalid_input with a clear message and field, no purchase POST, ledger unchanged.
 */
import { VtuError, type PurchaseRequest } from '../../client';
import { DIALECTS, startEnv, type Env } from './helpers';

type Case = [string, PurchaseRequest | (() => Promise<unknown>), string, RegExp];
/** A request of the wrong shape, as JavaScript callers and n8n expressions can send. */
const bad = (r: Record<string, unknown>) => r as unknown as PurchaseRequest;
const long = 'x'.repeat(906);

const table = (env: () => Env): Case[] => [
	// data
	[
		'data: phone too short',
		{ product: 'data', network: 'MTN', plan: 2, phone: '0803123456' },
		'phone',
		/Nigerian mobile number/,
	],
	[
		'data: phone letters',
		{ product: 'data', network: 'MTN', plan: 2, phone: '0803abc4567' },
		'phone',
		/Nigerian mobile number/,
	],
	['data: phone foreign', { product: 'data', network: 'MTN', plan: 2, phone: '+1 415 555 0100' }, 'phone', /Nigerian/],
	['data: phone empty', { product: 'data', network: 'MTN', plan: 2, phone: '' }, 'phone', /Nigerian/],
	[
		'data: GLO number on MTN',
		{ product: 'data', network: 'MTN', plan: 2, phone: '08051234567' },
		'phone',
		/looks like a GLO number.*ported/,
	],
	[
		'data: unknown prefix not ported',
		{ product: 'data', network: 'MTN', plan: 2, phone: '07027123456' },
		'phone',
		/07027 is not the prefix of a mobile network/,
	],
	// non-mobile numbers: refused the same way whatever `ported` says (a ported number keeps its prefix)
	[
		'data: toll-free 0800, ported',
		{ product: 'data', network: 'MTN', plan: 2, phone: '08001234567', ported: true },
		'phone',
		new RegExp(
			'"08001234567" is not a Nigerian mobile number: 0800 is not the prefix of a mobile network' +
				'.*use 11 digits like 08031234567',
		),
	],
	[
		'data: toll-free +234 800, ported',
		{ product: 'data', network: 'GLO', plan: 10, phone: '+234 800 123 4567', ported: true },
		'phone',
		/0800 is not the prefix of a mobile network/,
	],
	[
		'airtime: premium 0700, ported',
		{ product: 'airtime', network: 'MTN', amount: 100, phone: '07001234567', ported: true },
		'phone',
		/0700 is not the prefix/,
	],
	[
		'airtime: phone an object',
		bad({ product: 'airtime', network: 'MTN', amount: 100, phone: { n: '08031234567' } }),
		'phone',
		/must be a phone number as text or digits, not an object/,
	],
	[
		'airtime: phone a null-prototype object',
		bad({ product: 'airtime', network: 'MTN', amount: 100, phone: Object.create(null) }),
		'phone',
		/not an object/,
	],
	[
		'electricity: phone toll-free',
		{
			product: 'electricity',
			disco: 1,
			meter: '45012345678',
			meterType: 'prepaid',
			amount: 1000,
			phone: '08001234567',
		},
		'phone',
		/0800 is not the prefix/,
	],
	[
		'cable: phone toll-free',
		{ product: 'cable', provider: 'GOTV', package: 1, iuc: '7012345678', phone: '0800-123-4567' },
		'phone',
		/0800 is not the prefix/,
	],
	[
		'data: plan of another network',
		{ product: 'data', network: 'MTN', plan: 10, phone: '08031234567' },
		'plan',
		/not a MTN data plan.*GLO/,
	],
	[
		'data: unknown plan',
		{ product: 'data', network: 'GLO', plan: 999, phone: '08051234567' },
		'plan',
		/not a GLO data plan/,
	],
	[
		'data: plan not a number',
		{ product: 'data', network: 'MTN', plan: 'abc' as unknown as number, phone: '08031234567' },
		'plan',
		/positive whole number/,
	],
	[
		'data: plan negative',
		{ product: 'data', network: 'MTN', plan: -2, phone: '08031234567' },
		'plan',
		/positive whole number/,
	],
	[
		'data: plan not available',
		{ product: 'data', network: 'MTN', plan: 9, phone: '08031234567' },
		'plan',
		/not available/,
	],
	[
		'data: unknown network',
		{ product: 'data', network: 'VODAFONE', plan: 2, phone: '08031234567' },
		'network',
		/not a network of this site/,
	],
	['data: unknown network id', { product: 'data', network: 42, plan: 2, phone: '08031234567' }, 'network', /MTN \(1\)/],
	// airtime
	[
		'airtime: below VTU minimum',
		{ product: 'airtime', network: 'MTN', amount: 49, phone: '08031234567' },
		'amount',
		/below the VTU minimum of ₦50\.00/,
	],
	[
		'airtime: below Share and Sell minimum',
		{ product: 'airtime', network: 'MTN', amount: 99.99, phone: '08031234567', type: 'Share and Sell' },
		'amount',
		/₦100\.00/,
	],
	[
		'airtime: above maximum',
		{ product: 'airtime', network: 'MTN', amount: '50000.01', phone: '08031234567' },
		'amount',
		/maximum of ₦50,000\.00/,
	],
	[
		'airtime: three decimals',
		{ product: 'airtime', network: 'MTN', amount: '100.005', phone: '08031234567' },
		'amount',
		/at most two decimals/,
	],
	[
		'airtime: amount words',
		{ product: 'airtime', network: 'MTN', amount: 'hundred', phone: '08031234567' },
		'amount',
		/not a naira amount: type digits with at most two decimals/,
	],
	[
		'airtime: negative',
		{ product: 'airtime', network: 'MTN', amount: -100, phone: '08031234567' },
		'amount',
		/negative/,
	],
	[
		'airtime: bad type',
		{ product: 'airtime', network: 'MTN', amount: 100, phone: '08031234567', type: 'Awoof' as 'VTU' },
		'type',
		/VTU.*Share and Sell/,
	],
	[
		'airtime: AIRTEL number on 9MOBILE',
		{ product: 'airtime', network: '9MOBILE', amount: 100, phone: '08021234567' },
		'phone',
		/AIRTEL/,
	],
	// cable
	['cable: IUC with letters', { product: 'cable', provider: 'GOTV', package: 1, iuc: '70123A5678' }, 'iuc', /digits/],
	['cable: IUC too short', { product: 'cable', provider: 'GOTV', package: 1, iuc: '1234' }, 'iuc', /8–12 digits/],
	[
		'cable: package of another provider',
		{ product: 'cable', provider: 'GOTV', package: 5, iuc: '7012345678' },
		'package',
		/not a GOTV package.*DSTV/,
	],
	[
		'cable: unknown provider',
		{ product: 'cable', provider: 'NETFLIX', package: 1, iuc: '7012345678' },
		'provider',
		/GOTV \(1\)/,
	],
	[
		'cable: unknown package',
		{ product: 'cable', provider: 'DSTV', package: 77, iuc: '7023456789' },
		'package',
		/not a DSTV package/,
	],
	// electricity
	[
		'electricity: below ₦500',
		{ product: 'electricity', disco: 'Ikeja', meter: '45012345678', meterType: 'prepaid', amount: 499.99 },
		'amount',
		/minimum of ₦500\.00/,
	],
	[
		'electricity: meter letters',
		{ product: 'electricity', disco: 'Ikeja', meter: '4501234567X', meterType: 'prepaid', amount: 1000 },
		'meter',
		/meter number/,
	],
	[
		'electricity: meter too long',
		{ product: 'electricity', disco: 'Ikeja', meter: '45012345678901', meterType: 'prepaid', amount: 1000 },
		'meter',
		/6–13 digits/,
	],
	[
		'electricity: bad meter type',
		{ product: 'electricity', disco: 'Ikeja', meter: '45012345678', meterType: 'smart' as 'prepaid', amount: 1000 },
		'meterType',
		/prepaid.*postpaid/,
	],
	[
		'electricity: unknown disco',
		{ product: 'electricity', disco: 'Lagos Power', meter: '45012345678', meterType: 'prepaid', amount: 1000 },
		'disco',
		/Ikeja Electric \(1\)/,
	],
	[
		'electricity: bad phone',
		{ product: 'electricity', disco: 1, meter: '45012345678', meterType: 'prepaid', amount: 1000, phone: '123' },
		'phone',
		/Nigerian/,
	],
	// exam
	['exam: quantity 0', { product: 'exam_pin', exam: 'WAEC', quantity: 0 }, 'quantity', /1 to 5/],
	['exam: quantity 6', { product: 'exam_pin', exam: 'WAEC', quantity: 6 }, 'quantity', /1 to 5/],
	['exam: quantity 2.5', { product: 'exam_pin', exam: 'NECO', quantity: 2.5 }, 'quantity', /whole number/],
	['exam: unknown exam', { product: 'exam_pin', exam: 'JAMB', quantity: 1 }, 'exam', /WAEC, NECO, NABTEB/],
	// recharge
	[
		'recharge: quantity 40',
		{ product: 'recharge_card', network: 'MTN', denomination: 1, quantity: 40 },
		'quantity',
		/1 to 39/,
	],
	[
		'recharge: quantity 0',
		{ product: 'recharge_card', network: 'MTN', denomination: 1, quantity: 0 },
		'quantity',
		/1 to 39/,
	],
	[
		'recharge: denomination of another network',
		{ product: 'recharge_card', network: 'MTN', denomination: 5, quantity: 1 },
		'denomination',
		/not a MTN recharge card.*GLO/,
	],
	[
		'recharge: unknown denomination',
		{ product: 'recharge_card', network: 'GLO', denomination: 99, quantity: 1 },
		'denomination',
		/not a GLO recharge card/,
	],
	// sms
	[
		'sms: sender too long',
		{ product: 'sms', sender: 'ABCDEFGHIJKL', message: 'hi', recipients: '08031234567' },
		'sender',
		/1–11 letters or digits/,
	],
	[
		'sms: sender with space',
		{ product: 'sms', sender: 'My Shop', message: 'hi', recipients: '08031234567' },
		'sender',
		/no spaces/,
	],
	['sms: sender empty', { product: 'sms', sender: '', message: 'hi', recipients: '08031234567' }, 'sender', /1–11/],
	[
		'sms: sender symbols',
		{ product: 'sms', sender: 'Shop!', message: 'hi', recipients: '08031234567' },
		'sender',
		/symbols/,
	],
	[
		'sms: empty message',
		{ product: 'sms', sender: 'Shop', message: '   ', recipients: '08031234567' },
		'message',
		/empty/,
	],
	[
		'sms: message too long',
		{ product: 'sms', sender: 'Shop', message: long, recipients: '08031234567' },
		'message',
		/906 characters; the maximum is 905/,
	],
	[
		'sms: no valid recipients',
		{ product: 'sms', sender: 'Shop', message: 'hi', recipients: '123, 456' },
		'recipients',
		/none of the 2 recipients/,
	],
	// invisible text, strict yes/no, and values JavaScript cannot even print: all invalid_input, never a TypeError
	[
		'sms: zero-width spaces only',
		{ product: 'sms', sender: 'Shop', message: '\u200B\u200B\u200B', recipients: '08031234567' },
		'message',
		/no visible characters/,
	],
	[
		'sms: joiners, BOM and word joiner only',
		{ product: 'sms', sender: 'Shop', message: ' \u200D\uFEFF\u2060\u200C ', recipients: '08031234567' },
		'message',
		/no visible characters/,
	],
	[
		'sms: Hangul filler and Braille blank only',
		{ product: 'sms', sender: 'Shop', message: '\u3164\u2800\u115F', recipients: '08031234567' },
		'message',
		/no visible characters/,
	],
	[
		'sms: bidi marks and no-break spaces only',
		{ product: 'sms', sender: 'Shop', message: '\u202A\u00A0\u202C\u200E', recipients: '08031234567' },
		'message',
		/no visible characters/,
	],
	[
		'sms: message a number',
		bad({ product: 'sms', sender: 'Shop', message: 12345, recipients: '08031234567' }),
		'message',
		/must be text \(the SMS to send\), not 12345/,
	],
	[
		'sms: dnd "true" (text)',
		bad({ product: 'sms', sender: 'Shop', message: 'hi', recipients: '08031234567', dnd: 'true' }),
		'dnd',
		/true or false \(a boolean\), not "true"/,
	],
	[
		'sms: dnd 1',
		bad({ product: 'sms', sender: 'Shop', message: 'hi', recipients: '08031234567', dnd: 1 }),
		'dnd',
		/true or false/,
	],
	[
		'sms: sender 12n (bigint)',
		bad({ product: 'sms', sender: 12n, message: 'hi', recipients: '08031234567' }),
		'sender',
		/sender 12 must be 1–11 letters or digits/,
	],
	[
		'sms: sender a circular object',
		bad({
			product: 'sms',
			sender: (() => {
				const o: Record<string, unknown> = {};
				o.self = o;
				return o;
			})(),
			message: 'hi',
			recipients: '08031234567',
		}),
		'sender',
		/sender an object must be/,
	],
	[
		'sms: sender a symbol',
		bad({ product: 'sms', sender: Symbol('x'), message: 'hi', recipients: '08031234567' }),
		'sender',
		/a symbol/,
	],
	[
		'sms: recipients [Object.create(null)]',
		bad({ product: 'sms', sender: 'Shop', message: 'hi', recipients: [Object.create(null)] }),
		'recipients',
		/entry 1 is an object: give each phone number as text or digits/,
	],
	[
		'sms: recipients a circular object',
		bad({
			product: 'sms',
			sender: 'Shop',
			message: 'hi',
			recipients: (() => {
				const o: Record<string, unknown> = {};
				o.self = o;
				return o;
			})(),
		}),
		'recipients',
		/phone numbers as text separated by commas, or a list of them; got an object/,
	],
	[
		'sms: recipients a list inside the list',
		bad({ product: 'sms', sender: 'Shop', message: 'hi', recipients: ['08031234567', ['08051234567']] }),
		'recipients',
		/entry 2 is a list/,
	],
	[
		'sms: only a toll-free number',
		{ product: 'sms', sender: 'Shop', message: 'hi', recipients: '0800 123 4567' },
		'recipients',
		/none of the 1 recipients.*0800 is not the prefix of a mobile network/,
	],
	[
		'sms.plan: dnd "false" (text)',
		() =>
			env().client.sms.plan({
				sender: 'Shop',
				message: 'hi',
				recipients: '08031234567',
				dnd: 'false' as unknown as boolean,
			}),
		'dnd',
		/not "false"/,
	],
	['sms: no recipients', { product: 'sms', sender: 'Shop', message: 'hi', recipients: [] }, 'recipients', /empty/],
	[
		'sms.send: message too long',
		() => env().client.sms.send({ sender: 'Shop', message: long, recipients: '08031234567' }),
		'message',
		/maximum is 905/,
	],
	// identity
	['bvn: 10 digits', () => env().client.identity.validateBvn('2221234567'), 'bvn', /11 digits/],
	['bvn: letters', () => env().client.identity.validateBvn('2221234567a'), 'bvn', /BVN/],
	['nin: 12 digits', () => env().client.identity.validateNin('123456789012'), 'nin', /11 digits/],
	['nin: empty', () => env().client.identity.validateNin(''), 'nin', /NIN/],
	// validation helpers
	['validate IUC letters', () => env().client.cable.validate({ provider: 'GOTV', iuc: 'abc' }), 'iuc', /digits/],
	// names: an id, the exact name or a documented alias only; never a prefix or the closest name
	[
		'disco: a prefix ("Ka") is not Kano',
		{ product: 'electricity', disco: 'Ka', meter: '45012345678', meterType: 'prepaid', amount: 1000 },
		'disco',
		/"Ka" is not an electricity company.*Kano Electric \(4\)/,
	],
	[
		'disco: "Abakaliki" is not Aba',
		{ product: 'electricity', disco: 'Abakaliki', meter: '45012345678', meterType: 'prepaid', amount: 1000 },
		'disco',
		/"Abakaliki" is not an electricity company.*Enugu Electric \(5\)/,
	],
	[
		'disco: a longer name is not a match',
		{
			product: 'electricity',
			disco: 'Ikeja Electric Postpaid',
			meter: '45012345678',
			meterType: 'prepaid',
			amount: 1000,
		},
		'disco',
		/Type one of: Ikeja Electric \(1\)/,
	],
	[
		'disco: an object',
		bad({ product: 'electricity', disco: { a: 1 }, meter: '45012345678', meterType: 'prepaid', amount: 1000 }),
		'disco',
		/must be a name or an id \(text or a number\), not an object/,
	],
	[
		'disco: a fractional id',
		{ product: 'electricity', disco: 1.5, meter: '45012345678', meterType: 'prepaid', amount: 1000 },
		'disco',
		/1\.5 is not the id of an electricity company/,
	],
	[
		'disco: empty',
		{ product: 'electricity', disco: '  ', meter: '45012345678', meterType: 'prepaid', amount: 1000 },
		'disco',
		/Type one of: Ikeja Electric/,
	],
	[
		'network: a prefix ("MT")',
		{ product: 'data', network: 'MT', plan: 2, phone: '08031234567' },
		'network',
		/"MT" is not a network.*MTN \(1\)/,
	],
	[
		'network: an object',
		bad({ product: 'airtime', network: { name: 'MTN' }, amount: 100, phone: '08031234567' }),
		'network',
		/not an object.*MTN \(1\)/,
	],
	['network: true', bad({ product: 'data', network: true, plan: 2, phone: '08031234567' }), 'network', /not true/],
	[
		'network: a near name ("9mob")',
		{ product: 'recharge_card', network: '9mob', denomination: 1, quantity: 1 },
		'network',
		/9MOBILE \(3\)/,
	],
	[
		'cable: a prefix ("Star")',
		{ product: 'cable', provider: 'Star', package: 1, iuc: '7012345678' },
		'provider',
		/"Star" is not a cable TV provider.*STARTIME \(3\)/,
	],
	[
		'cable: a list',
		bad({ product: 'cable', provider: ['GOTV'], package: 1, iuc: '7012345678' }),
		'provider',
		/not a list/,
	],
	[
		'exam: a prefix ("WAE")',
		{ product: 'exam_pin', exam: 'WAE', quantity: 1 },
		'exam',
		/"WAE" is not an exam.*WAEC, NECO, NABTEB/,
	],
	[
		'exam: an object',
		bad({ product: 'exam_pin', exam: { toString: () => 'WAEC' }, quantity: 1 }),
		'exam',
		/name or an id/,
	],
	['exam: a number', bad({ product: 'exam_pin', exam: 1, quantity: 1 }), 'exam', /WAEC, NECO, NABTEB/],
	[
		'plan: text after the id',
		{ product: 'data', network: 'MTN', plan: '2; 3' as unknown as number, phone: '08031234567' },
		'plan',
		/positive whole number.*dataPlans/,
	],
	// ids: digits only, as the client, the nodes and the bot read them (never Number()'s hex, exponents or decimals)
	[
		'plan: "0x2" (hex)',
		bad({ product: 'data', network: 'MTN', plan: '0x2', phone: '08031234567' }),
		'plan',
		/positive whole number.*got "0x2"/,
	],
	[
		'plan: "1e1" (exponent)',
		bad({ product: 'data', network: 'MTN', plan: '1e1', phone: '08031234567' }),
		'plan',
		/got "1e1"/,
	],
	[
		'plan: "1.1e1"',
		bad({ product: 'data', network: 'MTN', plan: '1.1e1', phone: '08031234567' }),
		'plan',
		/got "1\.1e1"/,
	],
	['plan: "2.0"', bad({ product: 'data', network: 'MTN', plan: '2.0', phone: '08031234567' }), 'plan', /got "2\.0"/],
	['plan: "+2"', bad({ product: 'data', network: 'MTN', plan: '+2', phone: '08031234567' }), 'plan', /got "\+2"/],
	['plan: 2n (bigint)', bad({ product: 'data', network: 'MTN', plan: 2n, phone: '08031234567' }), 'plan', /got 2/],
	[
		'package: "1e0"',
		bad({ product: 'cable', provider: 'GOTV', package: '1e0', iuc: '7012345678' }),
		'package',
		/got "1e0"/,
	],
	[
		'denomination: "0x1"',
		bad({ product: 'recharge_card', network: 'MTN', denomination: '0x1', quantity: 1 }),
		'denomination',
		/got "0x1"/,
	],
	[
		'exam: quantity "1e0"',
		bad({ product: 'exam_pin', exam: 'WAEC', quantity: '1e0' }),
		'quantity',
		/whole number from 1 to 5; got "1e0"/,
	],
	[
		'recharge: quantity "0x3"',
		bad({ product: 'recharge_card', network: 'MTN', denomination: 1, quantity: '0x3' }),
		'quantity',
		/got "0x3"/,
	],
	[
		'transactions.get id "0x1"',
		() => env().client.transactions.get('data', '0x1' as unknown as number),
		'id',
		/numeric id/,
	],
	[
		'plan: beyond safe integers',
		{ product: 'data', network: 'MTN', plan: 1e20, phone: '08031234567' },
		'plan',
		/positive whole number/,
	],
	[
		'package: an object',
		bad({ product: 'cable', provider: 'GOTV', package: { id: 1 }, iuc: '7012345678' }),
		'package',
		/cable package id.*got an object/,
	],
	// amounts: plain numbers or plain numeric strings only
	[
		'airtime: spaced digits " 1 0 0 "',
		{ product: 'airtime', network: 'MTN', amount: ' 1 0 0 ', phone: '08031234567' },
		'amount',
		/" 1 0 0 " is not a naira amount: type digits/,
	],
	[
		'airtime: "₦100"',
		{ product: 'airtime', network: 'MTN', amount: '₦100', phone: '08031234567' },
		'amount',
		/must be a plain number: type 100 /,
	],
	[
		'airtime: "1,000"',
		{ product: 'airtime', network: 'MTN', amount: '1,000', phone: '08031234567' },
		'amount',
		/must be a plain number: type 1000 /,
	],
	[
		'airtime: "1,5" (ambiguous comma)',
		{ product: 'airtime', network: 'MTN', amount: '1,5', phone: '08031234567' },
		'amount',
		/not a naira amount/,
	],
	[
		'airtime: "1e3"',
		{ product: 'airtime', network: 'MTN', amount: '1e3', phone: '08031234567' },
		'amount',
		/not a naira amount/,
	],
	[
		'airtime: an object',
		bad({ product: 'airtime', network: 'MTN', amount: { naira: 100 }, phone: '08031234567' }),
		'amount',
		/must be a number such as 250 or text such as "250\.50", not an object/,
	],
	[
		'airtime: null',
		bad({ product: 'airtime', network: 'MTN', amount: null, phone: '08031234567' }),
		'amount',
		/not null/,
	],
	[
		'airtime: NaN',
		{ product: 'airtime', network: 'MTN', amount: NaN, phone: '08031234567' },
		'amount',
		/NaN is not a naira amount/,
	],
	[
		'airtime: a float with kobo fractions',
		{ product: 'airtime', network: 'MTN', amount: 200 + 0.1 + 0.2, phone: '08031234567' },
		'amount',
		/200\.29999999999998 has more than two decimals.*e\.g\. 200\.30/,
	],
	[
		'airtime: "-100"',
		{ product: 'airtime', network: 'MTN', amount: '-100', phone: '08031234567' },
		'amount',
		/must not be negative/,
	],
	[
		'airtime: 60000',
		{ product: 'airtime', network: 'GLO', amount: 60000, phone: '08051234567' },
		'amount',
		/maximum of ₦50,000\.00 per top-up/,
	],
	[
		'electricity: above ₦500,000',
		{ product: 'electricity', disco: 'IKEDC', meter: '45012345678', meterType: 'prepaid', amount: '500000.01' },
		'amount',
		/maximum of ₦500,000\.00 per token/,
	],
	[
		'electricity: ₦1,000,000,000,000',
		{ product: 'electricity', disco: 'Ikeja', meter: '45012345678', meterType: 'prepaid', amount: 1_000_000_000_000 },
		'amount',
		/maximum of ₦500,000\.00/,
	],
	[
		'electricity: 10^16',
		{ product: 'electricity', disco: 1, meter: '45012345678', meterType: 'prepaid', amount: 1e16 },
		'amount',
		/far too large/,
	],
	[
		'electricity: hex',
		{ product: 'electricity', disco: 1, meter: '45012345678', meterType: 'prepaid', amount: '0x1F4' },
		'amount',
		/not a naira amount/,
	],
	[
		'electricity: blank',
		{ product: 'electricity', disco: 1, meter: '45012345678', meterType: 'prepaid', amount: ' ' },
		'amount',
		/not a naira amount/,
	],
	// text and yes/no fields must be what they say
	[
		'recharge: nameOnCard an object',
		bad({ product: 'recharge_card', network: 'MTN', denomination: 1, quantity: 1, nameOnCard: { a: 1 } }),
		'nameOnCard',
		/must be text \(the name printed on the cards.*not an object/,
	],
	[
		'recharge: nameOnCard a number',
		bad({ product: 'recharge_card', network: 'MTN', denomination: 1, quantity: 1, nameOnCard: 42 }),
		'nameOnCard',
		/must be text/,
	],
	[
		'recharge: nameOnCard 51 characters',
		{ product: 'recharge_card', network: 'MTN', denomination: 1, quantity: 1, nameOnCard: 'n'.repeat(51) },
		'nameOnCard',
		/51 characters; keep it to 50 or fewer/,
	],
	[
		'airtime: type a list',
		bad({ product: 'airtime', network: 'MTN', amount: 100, phone: '08031234567', type: ['VTU'] }),
		'type',
		/"VTU" or "Share and Sell"; got a list/,
	],
	[
		'electricity: meterType a list',
		bad({ product: 'electricity', disco: 1, meter: '45012345678', meterType: ['prepaid'], amount: 1000 }),
		'meterType',
		/"prepaid" or "postpaid"/,
	],
	[
		'data: ported "yes"',
		bad({ product: 'data', network: 'MTN', plan: 2, phone: '08051234567', ported: 'yes' }),
		'ported',
		/true or false/,
	],
	[
		'airtime: ported "true"',
		bad({ product: 'airtime', network: 'MTN', amount: 100, phone: '08051234567', ported: 'true' }),
		'ported',
		/true or false \(a boolean\)/,
	],
	// products and record ids: own names only, numeric ids only (never part of a URL)
	[
		'product "__proto__"',
		bad({ product: '__proto__', network: 'MTN', plan: 2, phone: '08031234567' }),
		'product',
		/"__proto__" is unknown; use one of: data, airtime/,
	],
	['product "constructor"', bad({ product: 'constructor' }), 'product', /"constructor" is unknown/],
	['product "toString"', bad({ product: 'toString' }), 'product', /unknown/],
	[
		'transactions.get unknown product',
		() => env().client.transactions.get('constructor' as 'data', 1),
		'product',
		/unknown; use one of/,
	],
	[
		'transactions.get path in the id',
		() => env().client.transactions.get('data', '../validatebvn/?bvn=22212345678' as unknown as number),
		'id',
		/numeric id/,
	],
	['transactions.get negative id', () => env().client.transactions.get('data', -1), 'id', /positive whole number/],
	[
		'transactions.get fractional id',
		() => env().client.transactions.get('airtime', 1.5),
		'id',
		/positive whole number/,
	],
	[
		'transactions.get id with letters',
		() => env().client.transactions.get('data', '12abc' as unknown as number),
		'id',
		/numeric id/,
	],
	['examPins.get path id', () => env().client.examPins.get('1/../../user' as unknown as number), 'id', /numeric id/],
	[
		'transactions.refresh path id',
		() => env().client.transactions.refresh({ product: 'data', id: '../validatenin/?nin=1' } as never),
		'id',
		/numeric id/,
	],
	[
		'transactions.waitForFinal path id',
		() => env().client.transactions.waitForFinal({ product: 'data', id: '../x', status: 'processing' } as never),
		'id',
		/numeric id/,
	],
	['transactions.list "__proto__"', () => env().client.transactions.list('__proto__' as 'data'), 'product', /unknown/],
	[
		'transactions.findByIdent "constructor"',
		() => env().client.transactions.findByIdent('constructor' as 'data', 'Data1'),
		'product',
		/unknown/,
	],
	['catalog.dataPlans("Ka")', () => env().client.catalog.dataPlans('Ka'), 'network', /not a network.*MTN \(1\)/],
	[
		'validate IUC provider an object',
		() => env().client.cable.validate({ provider: { a: 1 } as never, iuc: '7012345678' }),
		'provider',
		/not an object/,
	],
	[
		'validate meter disco "Ka"',
		() => env().client.electricity.validate({ disco: 'Ka', meter: '45012345678', meterType: 'prepaid' }),
		'disco',
		/Kano Electric \(4\)/,
	],
	[
		'validate meter unknown disco',
		() => env().client.electricity.validate({ disco: 99, meter: '45012345678', meterType: 'prepaid' }),
		'disco',
		/not the id of an electricity company.*Ikeja Electric \(1\)/,
	],
];

describe.each(DIALECTS)('bad input (%s dialect)', (dialect) => {
	let env: Env;
	let ledgerBefore: number;
	beforeAll(async () => {
		env = await startEnv(dialect, { catalogTtlMs: 3_600_000 }); // no catalogue refresh during the table
		await env.client.catalog.get();
		ledgerBefore = (await env.admin.ledger()).length;
		env.counting.reset();
	});
	afterAll(() => env.close());

	const cases = table(() => env);
	test(`the table has at least 100 cases (${cases.length})`, () => expect(cases.length).toBeGreaterThanOrEqual(100));

	test.each(cases)('%s', async (_name, req, field, msg) => {
		const run = typeof req === 'function' ? req() : env.client.buy(req);
		const e = await Promise.resolve(run).then(
			() => {
				throw new Error('expected invalid_input');
			},
			(x) => x,
		);
		expect(e).toBeInstanceOf(VtuError);
		expect(e.code).toBe('invalid_input');
		expect(e.field).toBe(field);
		expect(e.message).toMatch(msg);
		if (typeof req !== 'function') await expect(env.client.quote(req)).rejects.toMatchObject({ code: 'invalid_input' });
	});

	test('nothing was sent: not one request after the catalogue, ledger unchanged', async () => {
		expect(env.counting.requests.map((r) => `${r.method} ${r.url}`)).toEqual([]);
		expect((await env.admin.ledger()).length).toBe(ledgerBefore);
	});
});

describe('what is accepted: ids, exact names, documented aliases, plain amounts', () => {
	let env: Env;
	beforeAll(async () => {
		env = await startEnv('family');
		await env.client.catalog.get();
	});
	afterAll(() => env.close());
	const elec = (disco: unknown, amount: unknown = 1000) =>
		env.client.quote({
			product: 'electricity',
			disco,
			meter: '45012345678',
			meterType: 'prepaid',
			amount,
		} as unknown as PurchaseRequest);

	test.each([
		[1, 'Ikeja Electric'],
		['1', 'Ikeja Electric'],
		['Ikeja Electric', 'Ikeja Electric'],
		['ikeja electric', 'Ikeja Electric'],
		['Ikeja', 'Ikeja Electric'],
		['IKEDC', 'Ikeja Electric'],
		['ikedc', 'Ikeja Electric'],
		['EKEDC', 'Eko Electric'],
		['AEDC', 'Abuja Electric'],
		['port-harcourt', 'Port Harcourt Electric'],
		['PHED', 'Port Harcourt Electric'],
		['KEDCO', 'Kano Electric'],
		['Kano', 'Kano Electric'],
		['EEDC', 'Enugu Electric'],
		['Aba Power', 'Aba Electric'],
	])('disco %p → %s', async (disco, name) => {
		expect((await elec(disco)).description).toContain(name);
	});

	test.each([
		['9mobile', 3],
		['ETISALAT', 3],
		['etisalat', 3],
		['9 Mobile', 3],
		['T2', 3],
		['mtn', 1],
		['Globacom', 2],
		[4, 4],
		['4', 4],
	])('network %p → id %p', async (network, id) => {
		const phone = { 1: '08031234567', 2: '08051234567', 3: '08091234567', 4: '08021234567' }[id as 1 | 2 | 3 | 4];
		const q = await env.client.quote({ product: 'airtime', network, amount: 100, phone } as PurchaseRequest);
		expect(q.request.network).toBe(id);
	});

	test.each([
		['startimes', 3],
		['StarTimes', 3],
		['gotv', 1],
		['DStv', 2],
		['2', 2],
	])('cable provider %p → id %p', async (provider, id) => {
		const pkg = (await env.client.catalog.cable()).find((c) => c.id === id)!.packages[0].id;
		const q = await env.client.quote({
			product: 'cable',
			provider,
			package: pkg,
			iuc: '7012345678',
		} as PurchaseRequest);
		expect(q.request.cablename).toBe(id);
	});

	test.each([
		['waec', 'WAEC'],
		[' NECO ', 'NECO'],
		['Nabteb', 'NABTEB'],
	])('exam %p → %s', async (exam, name) => {
		expect((await env.client.quote({ product: 'exam_pin', exam, quantity: 1 })).request.exam_name).toBe(name);
	});

	test.each([
		[500, '500.00'],
		['600', '600.00'],
		['600.50', '600.50'],
		[' 750.5 ', '750.50'],
		[1000.25, '1000.25'],
		['500000', '500000.00'],
	])('amount %p → ₦%s', async (amount, naira) => {
		expect((await elec('Ikeja', amount)).amount.naira).toBe(naira);
	});

	test('airtime up to ₦50,000 and a name on card up to 50 characters are accepted', async () => {
		expect(
			(await env.client.quote({ product: 'airtime', network: 'MTN', amount: '50000', phone: '08031234567' })).request
				.amount,
		).toBe(50000);
		const q = await env.client.quote({
			product: 'recharge_card',
			network: 'MTN',
			denomination: 1,
			quantity: 1,
			nameOnCard: ` ${'n'.repeat(50)} `,
		});
		expect(q.request.name_on_card).toBe('n'.repeat(50));
	});

	test('a number copied from a chat app (bidi marks, zero-width space) is the same number', async () => {
		const q = await env.client.quote({
			product: 'data',
			network: 'MTN',
			plan: 2,
			phone: '\u202A+234 803\u200B 123 4567\u202C',
		});
		expect(q.recipient).toBe('08031234567');
	});

	test(
		'SMS: digits as numbers, dnd as a boolean; a non-mobile entry is left out and counted with its ' + 'reason',
		async () => {
			const p = await env.client.sms.plan({
				sender: 'Shop',
				message: 'hi',
				recipients: [8031234567, '0800 123 4567', null, '08051234567', 'abc'] as unknown as string[],
				dnd: true,
			});
			expect(p.recipients).toEqual(['08031234567', '08051234567']);
			expect(p.dnd).toBe(true);
			expect(p.rejected).toEqual([
				{ input: '0800 123 4567', reason: 'not a Nigerian mobile prefix' },
				{ input: 'abc', reason: 'letters' },
			]);
			// a visible message with a zero-width joiner inside (an emoji sequence) is fine
			expect(
				(
					await env.client.sms.plan({
						sender: 'Shop',
						message: 'Hi \u{1F468}\u200D\u{1F469}',
						recipients: '08031234567',
					})
				).pages,
			).toBe(1);
		},
	);

	test('SMS send: the numbers left out are in the result, with how many and why', async () => {
		const [r] = await env.client.sms.send({
			sender: 'Shop',
			message: 'hi',
			recipients: '08031234567, 0800 123 4567, 0803123',
		});
		expect(r.details.recipients).toEqual(['08031234567']);
		expect(r.details.invalid).toEqual(['0800 123 4567', '0803123']);
		expect(r.details.rejected).toEqual([
			{ input: '0800 123 4567', reason: 'not a Nigerian mobile prefix' },
			{ input: '0803123', reason: 'wrong length' },
		]);
	});
});
