/**
 * A seller's day (issue 14): never silent while the vendor works, a next step under every final
 * message, commands that do not end a flow, seller wording, history and details, buy again with
 * the repeat guard, replayed confirms. Fake Bot API ← bot → real client → real sandbox (HTTP),
 * SQLite journal in a temp file.
 */
import type { VtuClient } from '../../client';
import { dataToConfirm, useBotEnv } from './harness';
import { confirmPattern, outcomeHead, pattern, source, text, what } from './texts';

/** Any successful outcome's first words. */
const DELIVERED = new RegExp(`^✅ ${source('state-successful')}: `);

const env = useBotEnv();

/** The real client, but a purchase only goes through once `ready()` holds (the vendor is "slow" until then). */
function slowVendor(c: VtuClient, ready: () => boolean, seen: string[]) {
	return Object.assign(Object.create(c) as VtuClient, {
		buy: async (...a: Parameters<VtuClient['buy']>) => {
			await env.tg.waitFor(ready, 20_000, 'typing to be shown while the vendor works');
			seen.push(env.tg.lastText(env.alice.id)!);
			return c.buy(...a);
		},
	});
}

describe('never silent while the vendor works', () => {
	test('the confirm message says "⏳ Sending… don\'t pay again" and typing is shown until the answer', async () => {
		const typing = () =>
			env.tg
				.callsOf('sendChatAction')
				.filter((c) => Number(c.payload.chat_id) === env.alice.id && c.payload.action === 'typing').length;
		const seen: string[] = [];
		const app = await env.makeBot(
			{ typingAfterMs: 10 },
			env.dbPath,
			slowVendor(env.client, () => typing() >= 1, seen),
		);
		await dataToConfirm(env, app, env.alice);
		const confirmMsg = env.tg.findButton(env.alice.id, /^confirm:/)!.messageId;
		await env.send(app, env.tg.buttonUpdate(env.alice, /^confirm:/));
		// While the vendor had not answered, the seller saw "Sending…" (no buttons) and typing (re-sent by the
		// plugin every 5 s).
		const ref = text('outcome-reference', { ref: app.journal.recentForUser(env.alice.id)[0].id });
		expect(seen).toEqual([
			`${text('confirm-sending', { what: what('MTN data 1GB SME (30 days)', '0803 123 4567') })}\n${ref}`,
		]);
		expect(typing()).toBeGreaterThanOrEqual(1);
		expect(env.tg.callsOf('editMessageText').slice(-1)[0].payload.message_id).toBe(confirmMsg);
		expect(env.tg.lastText(env.alice.id)).toMatch(DELIVERED);
		expect(await env.debits()).toBe(1);
	});
});

describe('next steps and flows', () => {
	test("/cancel takes the flow's buttons away and offers the menu; 🏠 Menu opens it", async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await env.send(app, env.tg.textUpdate(u, '/data'));
		await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
		expect(env.tg.buttons(u.id).length).toBeGreaterThan(1); // the plan list
		await env.send(app, env.tg.textUpdate(u, '/cancel'));
		expect(env.tg.lastText(u.id)).toBe(text('flow-cancelled'));
		expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual([text('btn-menu')]);
		expect(env.tg.callsOf('editMessageReplyMarkup').length).toBeGreaterThanOrEqual(1);
		await env.send(app, env.tg.buttonUpdate(u, '🏠 Menu'));
		expect(env.tg.lastText(u.id)).toBe(text('menu-question'));
		await env.send(app, env.tg.buttonUpdate(u, '📶 Buy data'));
		expect(env.tg.lastText(u.id)).toBe(text('data-choose-network'));
	});

	test('/balance and /history typed during a flow answer without ending it', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await env.send(app, env.tg.textUpdate(u, '/data'));
		await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
		await env.send(app, env.tg.buttonUpdate(u, /^1GB SME /));
		await env.send(app, env.tg.textUpdate(u, '/balance'));
		expect(env.tg.lastText(u.id)).toBe(
			`${text('balance-text', { balance: '₦1,000,000.00' })}\n\n${text('flow-still-open')}`,
		);
		await env.send(app, env.tg.textUpdate(u, '/history'));
		expect(env.tg.lastText(u.id)).toBe(`${text('history-empty')}\n\n${text('flow-still-open')}`);
		await env.send(app, env.tg.textUpdate(u, '0803 123 4567'));
		expect(env.tg.lastText(u.id)).toMatch(confirmPattern({ price: /₦[\d,.]+/, target: /.+/, gets: /.+/ }));
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toMatch(DELIVERED);
		expect(await env.debits()).toBe(1);
	});

	test('"not charged" offers Try again (same purchase); a replayed Confirm: "Already bought (ref …)"', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'error_before', count: 1 });
		await dataToConfirm(env, app, u);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toBe(
			'❌ Failed (not charged): MTN data 1GB SME (30 days) to 0803 123 4567.\nThe purchase did not go through.\n' +
				`${text('outcome-reference', { ref: app.journal.recentForUser(u.id)[0].id })}\nYou were not charged.`,
		);
		expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual([text('btn-try-again'), text('btn-menu')]);
		await env.send(app, env.tg.buttonUpdate(u, 'Try again'));
		const confirm = env.tg.buttonUpdate(u, /^confirm:/);
		await env.send(app, confirm);
		expect(env.tg.lastText(u.id)).toMatch(DELIVERED);
		const ref = app.journal.recentForUser(u.id)[0].id;
		await env.send(
			app,
			env.tg.callbackUpdate(u, confirm.callback_query.message.message_id, confirm.callback_query.data),
		);
		expect(env.tg.answers().slice(-1)).toEqual([`Already bought (ref ${ref})`]);
		expect(await env.debits()).toBe(1);
	});

	test('🔁 Buy again within minutes asks ("You bought this … ago"); No buys nothing, Yes buys once', async () => {
		const app = await env.makeBot();
		const u = env.bob;
		await dataToConfirm(env, app, u);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		const ref = app.journal.recentForUser(u.id)[0].id;
		await env.send(app, env.tg.buttonUpdate(u, '🔁 Buy again'));
		expect(env.tg.lastText(u.id)).toMatch(
			new RegExp(
				`^You bought this \\d+ s ago \\(ref ${ref}\\): MTN data 1GB SME \\(30 days\\) to 0803 123 4567\\. Buy it again\\?$`,
			),
		);
		await env.send(app, env.tg.buttonUpdate(u, 'No'));
		expect(env.tg.lastText(u.id)).toBe(text('repeat-declined'));
		expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual([
			text('btn-buy-again'),
			text('btn-menu'),
			text('btn-menu'),
		]); // the receipt's, and this one's
		// The same purchase typed again from the start hits the same guard.
		await dataToConfirm(env, app, u);
		expect(env.tg.lastText(u.id)).toMatch(
			pattern('repeat-question', { ago: new RegExp(source('ago-seconds', { n: /\d+/ })), ref: /\S+/, gets: /[^]*/ }),
		);
		await env.send(app, env.tg.buttonUpdate(u, '🔁 Yes, buy again'));
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toMatch(DELIVERED);
		expect(await env.debits()).toBe(2);
		// Another number is not a repeat.
		await dataToConfirm(env, app, u, { phone: '08061234567' });
		expect(env.tg.lastText(u.id)).toMatch(confirmPattern({ price: /₦[\d,.]+/, target: /.+/, gets: /.+/ }));
	});
});

describe('seller wording, history and details', () => {
	test('a vendor HTML 500 on the price list: a plain reason in chat, the details only in the log', async () => {
		// A wallet of its own: no price list cached by an earlier client of the demo wallet.
		const fresh = await env.admin.createUser({ username: 'fresh', balance: '1000' });
		const app = await env.makeBot({}, env.dbPath, env.clientFor(fresh.token));
		// the client retries a GET
		await env.admin.addFault({ endpoint: 'GET /api/get/network/', kind: 'error_before', count: 50 });
		await env.send(app, env.tg.textUpdate(env.alice, '/data'));
		expect(env.tg.lastText(env.alice.id)).toBe(
			"Could not load the price list: The provider's system had a problem. Try again in a few minutes.",
		);
		expect(env.tg.buttons(env.alice.id).map((b) => [b.text, b.data])).toEqual([
			['Try again', 'go:data'],
			['🏠 Menu', 'go:menu'],
		]);
		for (const t of env.tg.textsTo(env.alice.id)) expect(t).not.toMatch(/HTTP|\/api\/|build|500/);
		expect(env.logs.some((l) => l.includes('Could not load the price list') && l.includes('/api/get/network/'))).toBe(
			true,
		);
	});

	test('history: Delivered / Pending / Refunded ₦x / Failed (not charged), no drafts, Details per order', async () => {
		const app = await env.makeBot({ repeatWindowMs: 0 });
		const u = env.alice;
		const buy = async (phone: string) => {
			await dataToConfirm(env, app, u, { phone });
			await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		};
		await buy('08031110001'); // delivered, later refunded
		await buy('08031110002'); // delivered
		await dataToConfirm(env, app, u, { phone: '08031110003' });
		await env.send(app, env.tg.buttonUpdate(u, /^cancel:/)); // a cancelled draft
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'error_before', count: 1 });
		await buy('08031110004'); // not charged
		await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 3_600_000, finalStatus: 'successful' } });
		await buy('08031110005'); // pending
		const refunded = app.journal.recentForUser(u.id).find((o) => o.recipient === '08031110001')!;
		await env.admin.setStatus('data', refunded.vendorId!, 'failed');
		await env.send(app, env.tg.textUpdate(u, `/status ${refunded.ident}`)); // asks the vendor again
		expect(env.tg.lastText(u.id)).toMatch(
			new RegExp(
				`^${source('order-title', { product: text('product-data'), date: /.*/ })}\\n` +
					source('outcome-head', {
						icon: '↩️',
						label: text('state-refunded', { amount: '₦250.00' }),
						what: what('MTN data 1GB SME (30 days)', '0803 111 0001'),
					}),
			),
		);

		await env.send(app, env.tg.textUpdate(u, '/history'));
		const h = env.tg.lastText(u.id)!;
		const states = h
			.split('\n')
			.filter((l) => /^\d\./.test(l))
			.map((l) => [/0803 111 (\d{4})/.exec(l)![1], /: ([^:]+?)( \(ref \S+\))?$/.exec(l)![1]]);
		expect(states).toEqual([
			['0005', 'Pending'],
			['0004', 'Failed (not charged)'],
			['0002', 'Delivered'],
			['0001', 'Refunded ₦250.00'],
		]);
		expect(h).not.toMatch(/0003|cancelled|successful|processing|not_charged/);
		expect(
			env.tg
				.buttons(u.id)
				.slice(-5)
				.map((b) => b.text),
		).toEqual([...[1, 2, 3, 4].map((n) => text('btn-history-order', { n })), text('btn-menu')]);
		await env.send(app, env.tg.buttonUpdate(u, '🧾 3'));
		expect(env.tg.lastText(u.id)).toMatch(
			new RegExp(
				[
					`^${source('order-title', { product: text('product-data'), date: /.*/ })}`,
					outcomeHead('successful', what('MTN data 1GB SME (30 days)', '0803 111 0002')),
					source('outcome-charged', { charged: '₦250.00' }),
					source('outcome-reference', { ref: /\S+/ }),
				].join('\\n'),
			),
		);
		expect(
			env.tg
				.buttons(u.id)
				.slice(-2)
				.map((b) => b.text),
		).toEqual([text('btn-buy-again'), text('btn-menu')]);
		// Someone else's order id in a Details button is refused.
		await env.send(app, env.tg.callbackUpdate(env.bob, 1, `order:${refunded.id}`));
		expect(env.tg.answers().slice(-1)).toEqual([text('button-expired')]);
	});

	test("/status of an older order: the wallet after that order, never called today's wallet balance", async () => {
		const app = await env.makeBot({ repeatWindowMs: 0 });
		const u = env.alice;
		for (const phone of ['08031110001', '08031110002']) {
			await dataToConfirm(env, app, u, { phone });
			await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		}
		const first = app.journal.recentForUser(u.id).find((o) => o.recipient === '08031110001')!;
		await env.send(app, env.tg.textUpdate(u, `/status ${first.ident}`));
		const details = env.tg.lastText(u.id)!;
		// the figure is the one after that order (₦1,000,000 − ₦250), labelled as such
		expect(details).toContain(text('outcome-balance', { balance: '₦999,750.00' }));
		expect(details).not.toContain(text('cmd-balance'));
		await env.send(app, env.tg.textUpdate(u, '/balance'));
		expect(env.tg.lastText(u.id)).toBe(text('balance-text', { balance: '₦999,500.00' }));
	});
});
