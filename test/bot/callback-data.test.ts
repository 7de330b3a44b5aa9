/** Callback data: built and read in one place; anything not built there decodes as null. */
import { cb, decode, decodeAs, encode, type Callback } from '../../bot/callback-data';

test("every button kind round-trips and fits the Bot API's 64 bytes", () => {
	const all: Callback[] = [
		{ kind: 'go', place: 'data' },
		{ kind: 'again', orderId: 'AbC-d_12' },
		{ kind: 'order', orderId: 'x1' },
		{ kind: 'confirm', orderId: 'QWErty12_-' },
		{ kind: 'cancel', orderId: 'z' },
		{ kind: 'repeat', yes: true },
		{ kind: 'ported', yes: false },
		{ kind: 'net', n: 4 },
		{ kind: 'plan', n: 123 },
		{ kind: 'amt', n: 50_000 },
		{ kind: 'x' },
	];
	for (const c of all) {
		const data = encode(c);
		expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
		expect(decode(data)).toEqual(c);
	}
	expect(cb.confirm('abc')).toBe('confirm:abc');
	expect(cb.go('menu')).toBe('go:menu');
});

test('foreign or tampered data is refused, field by field', () => {
	for (const bad of [
		'',
		'go:',
		'go:wallet',
		'go:constructor',
		'confirm:',
		'confirm:a b',
		'confirm:ab/c',
		'net:1e3',
		'net:-1',
		'net:0x2',
		'plan:',
		'amt:1.5',
		'repeat:yes',
		'ported:',
		'xx',
		'nope:1',
		'confirm',
	]) {
		expect(decode(bad)).toBeNull();
	}
	expect(decode(undefined)).toBeNull();
	expect(decodeAs('net:2', ['plan'])).toBeNull();
	expect(decodeAs('plan:2', ['plan', 'x'])).toEqual({ kind: 'plan', n: 2 });
});
