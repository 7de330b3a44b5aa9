/**
 * The chat is never stuck: a way out of the PIN prompt that is not a wrong attempt, a PIN reset by the
 * owner, and after a restart the in-flight message edited to its outcome (no PIN asked for an order the
 * restart settled).
 */
import { rawBuy } from '../client/helpers';
import type { VtuBot } from '../../bot/bot';
import type { FakeUser } from './fake-telegram';
import { dataToConfirm, newProcessMemory, useBotEnv } from './harness';
import { afterRestart, outcomeHead, source, text, what } from './texts';

const env = useBotEnv();
const ITEM = what('MTN data 1GB SME (30 days)', '0803 123 4567');
const DELIVERED = new RegExp(`^${outcomeHead('successful', ITEM)}`);

async function setPin(app: VtuBot, u: FakeUser, pin: string): Promise<void> {
	await env.send(app, env.tg.textUpdate(u, '/setpin'));
	await env.send(app, env.tg.textUpdate(u, pin));
	await env.send(app, env.tg.textUpdate(u, pin));
	expect(env.tg.lastText(u.id)).toBe(text('pin-set'));
}

const failures = (app: VtuBot, userId: number) =>
	(app.db.prepare('SELECT failures FROM pins WHERE user_id = ?').get(userId) as { failures: number } | undefined)
		?.failures;

describe('the PIN prompt', () => {
	test('its Cancel button and /cancel leave it without a wrong attempt; nothing is bought', async () => {
		const app = await env.makeBot({ pinRequired: true, pinMaxFailures: 3 });
		const u = env.alice;
		await setPin(app, u, '4321');

		await dataToConfirm(env, app, u);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toBe(text('pin-authorise'));
		const prompt = env.tg.botMessages(u.id).at(-1)!;
		expect(prompt.reply_markup?.inline_keyboard.flat().map((b: { text: string }) => b.text)).toEqual([
			text('btn-confirm-cancel'),
		]);
		await env.send(app, env.tg.buttonUpdate(u, /^cancel:/));
		expect(env.tg.lastText(u.id)).toBe(text('flow-cancelled'));
		expect(app.journal.recentForUser(u.id)[0].state).toBe('cancelled');
		expect(failures(app, u.id)).toBe(0);
		// The next text is an ordinary message again, not a PIN attempt.
		await env.send(app, env.tg.textUpdate(u, '1111'));
		expect(failures(app, u.id)).toBe(0);

		await dataToConfirm(env, app, u);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		await env.send(app, env.tg.textUpdate(u, '/cancel'));
		expect(env.tg.lastText(u.id)).toBe(text('flow-cancelled'));
		expect(failures(app, u.id)).toBe(0);
		expect(app.journal.recentForUser(u.id).map((o) => o.state)).toEqual(['cancelled', 'cancelled']);
		expect(await env.debits()).toBe(0);

		// The PIN still works afterwards.
		await dataToConfirm(env, app, u);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		await env.send(app, env.tg.textUpdate(u, '4321'));
		expect(env.tg.lastText(u.id)).toMatch(DELIVERED);
		expect(await env.debits()).toBe(1);
	});

	test('/resetpin: the owner drops a forgotten PIN; the customer sets a new one and buys with it', async () => {
		const app = await env.makeBot({ pinRequired: true, pinMaxFailures: 3 });
		const u = env.alice;
		await setPin(app, u, '4321');

		await env.send(app, env.tg.textUpdate(env.bob, `/resetpin ${u.id}`));
		expect(env.tg.lastText(env.bob.id)).toBe(text('admin-only'));
		await env.send(app, env.tg.textUpdate(env.admin1, '/resetpin'));
		expect(env.tg.lastText(env.admin1.id)).toBe(text('admin-resetpin-usage'));
		await env.send(app, env.tg.textUpdate(env.admin1, `/resetpin ${u.id}`));
		expect(env.tg.lastText(env.admin1.id)).toBe(
			text('admin-resetpin-done', { user: `Alice (@${u.username}, ${u.id})` }),
		);
		expect(env.tg.lastText(u.id)).toBe(text('admin-resetpin-user'));
		// The customer is told up front, and /setpin asks for a new PIN (not the forgotten one).
		await env.send(app, env.tg.textUpdate(u, '/data'));
		expect(env.tg.lastText(u.id)).toBe(text('check-pin-required'));
		await env.send(app, env.tg.buttonUpdate(u, 'go:setpin'));
		expect(env.tg.lastText(u.id)).toBe(text('pin-new'));
		await env.send(app, env.tg.textUpdate(u, '8642'));
		await env.send(app, env.tg.textUpdate(u, '8642'));
		expect(env.tg.lastText(u.id)).toBe(text('pin-set'));

		await dataToConfirm(env, app, u);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		await env.send(app, env.tg.textUpdate(u, '4321')); // the old PIN no longer works
		expect(env.tg.textsTo(u.id).slice(-2)[0]).toBe(text('pin-wrong', { n: 2 }));
		await env.send(app, env.tg.textUpdate(u, '8642'));
		expect(env.tg.lastText(u.id)).toMatch(DELIVERED);
		expect(await env.debits()).toBe(1);
	});
});

describe('after a restart', () => {
	test.each([
		['had taken her PIN', true],
		['still waited for it', false],
	])(
		'the in-flight "Sending…" message is edited to its outcome; no PIN asked for that order (the gate %s)',
		async (_, pinTaken) => {
			const app1 = await env.makeBot({ pinRequired: true });
			const u = env.alice;
			await setPin(app1, u, '4321');
			await dataToConfirm(env, app1, u);
			const confirmMsg = env.tg.findButton(u.id, /^confirm:/)!.messageId;
			await env.send(app1, env.tg.buttonUpdate(u, /^confirm:/));
			expect(env.tg.lastText(u.id)).toBe(text('pin-authorise'));
			const { id } = app1.db.prepare(`SELECT id FROM orders WHERE user_id = ? AND state = 'created'`).get(u.id) as {
				id: string;
			};
			const order = app1.journal.get(id)!;

			// The process dies while buying: the journal says `sent`, the message says "Sending…", the
			// vendor charged (a raw POST: the dead process never saw its answer).
			expect(app1.journal.beginSend(order.id, { maxPurchaseKobo: 1e9, dailyLimitKobo: 1e9 }).ok).toBe(true);
			app1.journal.setMessage(order.id, confirmMsg);
			if (pinTaken) app1.pinGate.disarm(u.id); // the gate takes the PIN message (and disarms) before the purchase
			await rawBuy(env.client, env.sb.demo.token, order.request as any);
			await app1.close();
			app1.db.close();
			env.bots.splice(env.bots.indexOf(app1), 1);
			newProcessMemory();

			const app2 = await env.makeBot({ pinRequired: true }, env.dbPath, env.clientFor(env.sb.demo.token));
			expect(app2.journal.get(order.id)!.state).toBe('successful');
			// The old message now says what happened, with the same reference, and the customer got a notice.
			const edits = env.tg
				.callsOf('editMessageText')
				.filter((c) => c.payload.message_id === confirmMsg)
				.map((c) => String(c.payload.text));
			expect(edits.at(-1)).toMatch(DELIVERED);
			expect(edits.at(-1)).toContain(text('outcome-reference', { ref: order.id }));
			expect(env.tg.lastText(u.id)).toMatch(afterRestart(outcomeHead('successful', ITEM)));

			// Her next message is not taken as a PIN for the settled order (and is no wrong attempt).
			const before = env.tg.textsTo(u.id).length;
			await env.send(app2, env.tg.textUpdate(u, '4321'));
			const after = env.tg.textsTo(u.id).slice(before);
			expect(after).not.toContain(text('pin-authorise'));
			expect(after.some((x) => new RegExp(source('pin-wrong', { n: /\d+/ })).test(x))).toBe(false);
			expect(after).toEqual([text('pin-order-settled')]);
			expect(failures(app2, u.id)).toBe(0);
			expect(await env.debits()).toBe(1);
		},
	);
});

describe('forgiving input: a pasted contact list for bulk SMS', () => {
	test('names before the numbers understood; 0800 and repeats said with counts that add up; one debit', async () => {
		const app = await env.makeBot();
		const u = env.bob;
		await env.send(app, env.tg.textUpdate(u, '/sms'));
		await env.send(app, env.tg.textUpdate(u, 'SHOP'));
		const list = [
			'Ada Obi 08031234567',
			'Bola - 0805 123 4567',
			'Chi: +234 701 234 5678',
			'Dayo – 0809-123-4567',
			'Ada again 0803 123 4567',
			'Helpline 0800 123 4567',
			'Tunde Bello',
		].join('\n');
		await env.send(app, env.tg.textUpdate(u, list));
		expect(env.tg.textsTo(u.id).slice(-2)).toEqual([
			[
				text('sms-found', { numbers: text('sms-numbers', { n: 4 }) }),
				text('sms-names-ignored', { n: 5 }),
				text('sms-count-up', { entries: 7, used: 4, duplicates: 1, left: 2 }),
				text('sms-bad-title', { n: 2 }),
				text('sms-bad-entry-reason', {
					where: text('sms-where-line', { n: '6' }),
					value: 'Helpline 0800 123 4567',
					reason: text('sms-reason-toll-free'),
				}),
				text('sms-bad-entry-reason', {
					where: text('sms-where-line', { n: '7' }),
					value: 'Tunde Bello',
					reason: text('sms-reason-letters'),
				}),
			].join('\n'),
			text('sms-message-prompt'),
		]);
		await env.send(app, env.tg.textUpdate(u, 'Hello'));
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		const txns = await env.admin.transactions({ username: env.sb.demo.username, product: 'sms' });
		expect(txns).toHaveLength(1);
		expect(txns[0].recipient.split(',').sort()).toEqual([
			'2347012345678',
			'2348031234567',
			'2348051234567',
			'2348091234567',
		]);
		expect(await env.debits()).toBe(1);
	});

	test('the recipient cap is told before the message is typed, and a shorter list goes on', async () => {
		const app = await env.makeBot({ smsMaxRecipients: 3 });
		const u = env.alice;
		await env.send(app, env.tg.textUpdate(u, '/sms'));
		await env.send(app, env.tg.textUpdate(u, 'SHOP'));
		expect(env.tg.lastText(u.id)).toBe(text('sms-recipients-prompt', { max: 3 }));
		await env.send(app, env.tg.textUpdate(u, '08031234567\n08051234567\n07012345678\n08091234567'));
		expect(env.tg.lastText(u.id)).toBe(text('sms-too-many-now', { n: 4, max: 3 }));
		expect(env.tg.textsTo(u.id)).not.toContain(text('sms-message-prompt'));
		await env.send(app, env.tg.textUpdate(u, '08031234567\n08051234567\n08031234567'));
		expect(env.tg.lastText(u.id)).toBe(text('sms-message-prompt'));
		await env.send(app, env.tg.textUpdate(u, 'Hello'));
		expect(env.tg.lastText(u.id)).toMatch(/^Confirm ₦[\d.,]+ for 2 numbers\?/);
		expect(await env.debits()).toBe(0);
	});
});

describe('a slow vendor', () => {
	test('typing shows while the balance read before Confirm is held', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		const typing = () =>
			env.tg
				.callsOf('sendChatAction')
				.filter((c) => Number(c.payload.chat_id) === u.id && c.payload.action === 'typing').length;
		await env.send(app, env.tg.textUpdate(u, '/data'));
		await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
		await env.send(app, env.tg.buttonUpdate(u, /^1GB SME /));
		// the vendor holds its balance answer: the Confirm step waits on it
		await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'latency', latencyMs: 4_000, count: 1 });
		const before = typing();
		const phone = env.send(app, env.tg.textUpdate(u, '0803 123 4567'));
		await env.tg.waitFor(() => typing() > before, 10_000, 'typing while the vendor is held');
		// shown while the vendor still holds the answer: no Confirm yet
		expect(env.tg.findButton(u.id, /^confirm:/)).toBeUndefined();
		await phone;
		expect(env.tg.findButton(u.id, /^confirm:/)).toBeDefined();
	});
});
