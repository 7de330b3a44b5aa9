/**
 * The bot reads numbers and amounts with the client's parser (client/input.ts): a toll-free or other
 * non-mobile number is refused at the phone question (never offered "ported?", never bought), and left
 * out of an SMS list with its reason and counted, exactly as the nodes and client.sms treat it.
 */
import { recipientsFromCsv, recipientsFromText, recipientsReport } from '../../bot/features/sms-recipients';
import { amountProblem } from '../../bot/features/airtime';
import { useBotEnv } from './harness';
import { text } from './texts';

const env = useBotEnv();

test('/data: a toll-free 0800 number is refused with why, not asked "ported?"; nothing is bought', async () => {
	const app = await env.makeBot();
	const u = env.alice;
	await env.send(app, env.tg.textUpdate(u, '/data'));
	await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
	await env.send(app, env.tg.buttonUpdate(u, /^1GB SME /));
	await env.send(app, env.tg.textUpdate(u, '0800 123 4567'));
	// the client's rule, in the catalogue's words (bot/refusals.ts)
	expect(env.tg.lastText(u.id)).toBe(
		text('phone-invalid-why', { problem: text('phone-problem-prefix', { prefix: '0800' }) }),
	);
	expect(env.tg.textsTo(u.id).join('\n')).not.toMatch(/Has this number been ported/);
	// a premium 0700 the same way; then a real number goes on to the confirm
	await env.send(app, env.tg.textUpdate(u, '+234 700 123 4567'));
	expect(env.tg.lastText(u.id)).toBe(
		text('phone-invalid-why', { problem: text('phone-problem-prefix', { prefix: '0700' }) }),
	);
	await env.send(app, env.tg.textUpdate(u, '\u202A0803 123 4567\u202C')); // pasted from a chat app, with bidi marks
	expect(env.tg.lastText(u.id)).toMatch(/^Confirm ₦250\.00 for 0803 123 4567 \(MTN\)\?/);
	expect(await env.debits()).toBe(0);
});

test('SMS lists: non-mobile numbers are left out with their reason and counted, as the client would drop them', () => {
	const r = recipientsFromText('08031234567\n0800 123 4567\n07001234567, 08051234567\n0803123\n');
	expect(r.numbers).toEqual(['08031234567', '08051234567']);
	expect(r.bad).toEqual([
		{ where: 'line 2', value: '0800 123 4567', reason: 'a toll-free 0800 number, which cannot receive SMS' },
		{ where: 'line 3', value: '07001234567', reason: text('sms-reason-prefix') },
		{ where: 'line 4', value: '0803123', reason: text('sms-reason-length') },
	]);
	expect(recipientsReport(r)).toBe(
		'Found 2 numbers.\n5 entries read: 2 used, 0 repeated (used once), 3 left out.\n' +
			'Left out (3, not Nigerian mobile numbers):\n' +
			'line 2: 0800 123 4567 (a toll-free 0800 number, which cannot receive SMS)\n' +
			`line 3: 07001234567 (${text('sms-reason-prefix')})\nline 4: 0803123 (${text('sms-reason-length')})`,
	);
	const csv = recipientsFromCsv('name,phone\nAda,08031234567\nToll,08001234567\n');
	expect(csv.numbers).toEqual(['08031234567']);
	expect(csv.bad).toEqual([
		{ where: 'row 3', value: '08001234567', reason: 'a toll-free 0800 number, which cannot receive SMS' },
	]);
});

test('/sms end to end: a toll-free number in the list is reported and not sent or charged', async () => {
	const app = await env.makeBot();
	const u = env.bob;
	await env.send(app, env.tg.textUpdate(u, '/sms'));
	await env.send(app, env.tg.textUpdate(u, 'SHOP'));
	await env.send(app, env.tg.textUpdate(u, '08031234567\n08001234567'));
	expect(env.tg.textsTo(u.id).slice(-2)[0]).toBe(
		'Found 1 number.\n2 entries read: 1 used, 0 repeated (used once), 1 left out.\n' +
			'Left out (1, not Nigerian mobile numbers):\n' +
			'line 2: 08001234567 (a toll-free 0800 number, which cannot receive SMS)',
	);
	await env.send(app, env.tg.textUpdate(u, 'Hello'));
	expect(env.tg.lastText(u.id)).toMatch(/^Confirm ₦[\d.]+ for 1 number\?/);
});

test('/sms: a message of only invisible characters is refused by the client rule and asked again', async () => {
	const app = await env.makeBot();
	const u = env.alice;
	await env.send(app, env.tg.textUpdate(u, '/sms'));
	await env.send(app, env.tg.textUpdate(u, 'SHOP'));
	await env.send(app, env.tg.textUpdate(u, '08031234567'));
	await env.send(app, env.tg.textUpdate(u, '\u200B\u200B\u2060'));
	const hint = text('sms-message-as-text');
	expect(env.tg.lastText(u.id)).toBe(text('input-problem', { problem: text('sms-message-invisible'), hint }));
	await env.send(app, env.tg.textUpdate(u, '   '));
	expect(env.tg.lastText(u.id)).toBe(text('input-problem', { problem: text('sms-message-empty'), hint }));
	await env.send(app, env.tg.textUpdate(u, 'x'.repeat(1000)));
	expect(env.tg.lastText(u.id)).toBe(
		text('input-problem', { problem: text('sms-message-too-long', { n: 1000, max: 905, over: 95 }), hint }),
	);
	expect(await env.debits()).toBe(0);
	await env.send(app, env.tg.textUpdate(u, 'Hello'));
	expect(env.tg.lastText(u.id)).toMatch(/^Confirm ₦[\d.]+ for 1 number\?/);
});

test("airtime amounts by the client's rule: hex, exponents, invisible characters refused saying what to type", () => {
	for (const typed of ['0x64', '1e3', '\u200B100']) expect(amountProblem(typed, 1_000_000)).toBe(text('input-amount'));
	expect(amountProblem(' 100 ', 1_000_000)).toBeNull();
});
