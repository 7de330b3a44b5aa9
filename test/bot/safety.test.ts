/** Who may spend, PIN, limits, duplicates, stale buttons, restarts and faults. */
import { naira } from '../../bot/orders';
import { dataToConfirm, useBotEnv } from './harness';
import { confirmPattern, lines, notChargedOutcome, outcomeHead, pattern, source, text, what } from './texts';

/** Any successful outcome's first words. */
const DELIVERED = new RegExp(`^✅ ${source('state-successful')}: `);

const env = useBotEnv();

describe('who may spend', () => {
	test('strangers are told their ID and refused; admins /allow and /deny them (persisted in SQLite)', async () => {
		const app = await env.makeBot();
		const s = env.stranger;
		await env.send(app, env.tg.textUpdate(s, '/data'));
		expect(env.tg.lastText(s.id)).toBe(text('gate-private-bot', { id: String(s.id) }));
		await env.send(app, env.tg.callbackUpdate(s, 1, 'net:1'));
		expect(env.tg.answers()).toEqual([text('gate-not-allowed')]);
		expect(env.tg.textsTo(s.id)).toHaveLength(1);

		await env.send(app, env.tg.textUpdate(env.alice, `/allow ${s.id}`));
		expect(env.tg.lastText(env.alice.id)).toBe(text('admin-only'));
		await env.send(app, env.tg.textUpdate(env.admin1, `/allow ${s.id}`));
		expect(env.tg.lastText(env.admin1.id)).toBe(
			text('admin-allowed-told', { user: `Stranger (@${s.username}, ${s.id})` }),
		);
		expect(env.tg.textsTo(s.id).slice(-1)).toEqual([text('admin-welcome')]);
		await env.send(app, env.tg.textUpdate(s, '/balance'));
		expect(env.tg.lastText(s.id)).toBe(text('balance-text', { balance: '₦1,000,000.00' }));

		// A new instance on the same file keeps the decision.
		const app2 = await env.makeBot();
		await env.send(app2, env.tg.textUpdate(s, '/balance'));
		expect(env.tg.lastText(s.id)).toBe(text('balance-text', { balance: '₦1,000,000.00' }));
		await env.send(app2, env.tg.textUpdate(env.admin1, `/deny ${s.id}`));
		// listed in BOT_ALLOWED_IDS: /deny overrides
		await env.send(app2, env.tg.textUpdate(env.admin1, `/deny ${env.alice.id}`));
		await env.send(app2, env.tg.textUpdate(s, '/balance'));
		expect(env.tg.lastText(s.id)).toMatch(pattern('gate-private-bot', { id: /\d+/ }));
		await env.send(app2, env.tg.textUpdate(env.alice, '/balance'));
		expect(env.tg.lastText(env.alice.id)).toMatch(pattern('gate-private-bot', { id: /\d+/ }));
		await env.send(app2, env.tg.textUpdate(env.admin1, '/users'));
		// Names for those who wrote to the bot; the bare ID for those who never did (Bob).
		const named = (u: typeof s) => `${u.first_name} (@${u.username}, ${u.id})`;
		expect(env.tg.lastText(env.admin1.id)).toBe(
			`${text('admin-users')}\n${[env.admin1, env.bob]
				.sort((a, b) => a.id - b.id)
				.map((u) => (u === env.bob ? `${u.id}` : named(u)))
				.join('\n')}`,
		);
		expect(await env.debits()).toBe(0);
	});

	test('purchases only in private chats', async () => {
		const app = await env.makeBot();
		await env.send(app, env.tg.groupTextUpdate(env.alice, -100123, '/data'));
		expect(env.tg.lastText(-100123)).toBe(text('gate-private-chat', { bot: 'vtu_test_bot' }));
		expect(env.tg.textsTo(-100123)).toHaveLength(1);
	});
});

describe('PIN', () => {
	// refused as the flow starts (no PIN, lockout); /setpin hashes it, deletes the messages, never stores it in clear
	test('required: no PIN refused; /setpin; wrong PIN → retry; right → a purchase; lockout; /unlock', async () => {
		const app = await env.makeBot({ pinRequired: true, pinMaxFailures: 3 });
		const u = env.alice;
		// Said as /data starts, before network, plan and number are asked.
		await env.send(app, env.tg.textUpdate(u, '/data'));
		expect(env.tg.textsTo(u.id)).toEqual([text('check-pin-required')]);
		expect(
			env.tg
				.buttons(u.id)
				.slice(-2)
				.map((b) => [b.text, b.data]),
		).toEqual([
			['🔒 Set PIN', 'go:setpin'],
			['🏠 Menu', 'go:menu'],
		]);
		expect(env.tg.buttons(u.id).some((b) => b.data.startsWith('confirm:'))).toBe(false);
		expect(app.journal.recentForUser(u.id)).toHaveLength(0); // no order was even drafted

		await env.send(app, env.tg.textUpdate(u, '/setpin'));
		expect(env.tg.lastText(u.id)).toBe(text('pin-new'));
		await env.send(app, env.tg.textUpdate(u, '12'));
		expect(env.tg.textsTo(u.id).slice(-2)[0]).toBe(text('pin-digits'));
		await env.send(app, env.tg.textUpdate(u, '4321'));
		expect(env.tg.lastText(u.id)).toBe(text('pin-repeat'));
		await env.send(app, env.tg.textUpdate(u, '4321'));
		expect(env.tg.lastText(u.id)).toBe(text('pin-set'));
		expect(env.tg.callsOf('deleteMessage')).toHaveLength(3);

		await dataToConfirm(env, app, u);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toBe(text('pin-authorise'));
		await env.send(app, env.tg.textUpdate(u, '1111'));
		expect(env.tg.textsTo(u.id).slice(-2)[0]).toBe(text('pin-wrong', { n: 2 }));
		expect(await env.debits()).toBe(0);
		await env.send(app, env.tg.textUpdate(u, '4321'));
		expect(env.tg.lastText(u.id)).toMatch(DELIVERED);
		expect(await env.debits()).toBe(1);
		expect(env.tg.callsOf('deleteMessage')).toHaveLength(5);

		// Three wrong PINs lock purchases.
		await dataToConfirm(env, app, u, { phone: '08061234567' });
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		for (const pin of ['9090', '9091']) await env.send(app, env.tg.textUpdate(u, pin));
		await env.send(app, env.tg.textUpdate(u, '9092'));
		expect(env.tg.lastText(u.id)).toMatch(new RegExp(`${pattern('pin-locked-purchases', { until: /.*/ }).source}$`));
		await env.send(app, env.tg.textUpdate(u, '/data'));
		expect(env.tg.lastText(u.id)).toMatch(new RegExp(`${pattern('check-pin-locked', { until: /.*/ }).source}$`));
		expect(env.tg.buttons(u.id).some((b) => b.data.startsWith('confirm:'))).toBe(false);
		expect(await env.debits()).toBe(1);

		// An admin lifts the lockout; the user is told and can buy with the same PIN.
		await env.send(app, env.tg.textUpdate(env.bob, `/unlock ${u.id}`));
		expect(env.tg.lastText(env.bob.id)).toBe(text('admin-only'));
		await env.send(app, env.tg.textUpdate(env.admin1, `/unlock ${u.id}`));
		expect(env.tg.lastText(env.admin1.id)).toBe(text('admin-unlocked', { user: `Alice (@${u.username}, ${u.id})` }));
		expect(env.tg.lastText(u.id)).toBe(text('admin-unlocked-user'));
		await dataToConfirm(env, app, u, { phone: '08061234567' });
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toBe(text('pin-authorise'));
		await env.send(app, env.tg.textUpdate(u, '4321'));
		expect(env.tg.lastText(u.id)).toMatch(
			new RegExp(
				`^${outcomeHead('successful', new RegExp(source('recipient-to', { what: /.*/, to: '0806 123 4567' })))}`,
			),
		);
		expect(await env.debits()).toBe(2);

		// The PIN never reached storage or logs in clear text; the hash is scrypt with a salt.
		const dump = JSON.stringify([
			app.db.prepare('SELECT * FROM kv').all(),
			app.db.prepare('SELECT * FROM orders').all(),
			app.db.prepare('SELECT * FROM pins').all(),
		]);
		for (const pin of ['4321', '1111', '9090', '9091', '9092']) {
			expect(dump).not.toContain(`"${pin}"`);
			expect(dump).not.toMatch(new RegExp(`[^0-9a-f]${pin}[^0-9a-f]`));
			for (const l of env.logs) expect(l).not.toMatch(new RegExp(`\\D${pin}\\D`));
		}
		const row = app.db.prepare('SELECT hash, salt FROM pins WHERE user_id = ?').get(u.id) as {
			hash: string;
			salt: string;
		};
		expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
		expect(row.salt).toMatch(/^[0-9a-f]{32}$/);
	});
});

describe('limits', () => {
	test('incoming rate limit per user (@grammyjs/ratelimiter)', async () => {
		const app = await env.makeBot({ rateLimit: 3, rateWindowMs: 60_000 });
		for (let i = 0; i < 5; i++) await env.send(app, env.tg.textUpdate(env.alice, '/help'));
		expect(env.tg.textsTo(env.alice.id)).toHaveLength(3);
		await env.send(app, env.tg.textUpdate(env.bob, '/help'));
		expect(env.tg.textsTo(env.bob.id)).toHaveLength(1);
	});

	test('per-purchase limit', async () => {
		const app = await env.makeBot({ maxPurchaseKobo: 20_000 });
		await dataToConfirm(env, app, env.alice);
		expect(env.tg.lastText(env.alice.id)).toBe(text('check-over-max', { amount: '₦250.00', limit: '₦200.00' }));
		expect(await env.debits()).toBe(0);
	});

	test('daily limit from the journal', async () => {
		const app = await env.makeBot({ dailyLimitKobo: 40_000 });
		await dataToConfirm(env, app, env.alice);
		await env.send(app, env.tg.buttonUpdate(env.alice, /^confirm:/));
		expect(env.tg.lastText(env.alice.id)).toMatch(DELIVERED);
		await dataToConfirm(env, app, env.alice);
		expect(env.tg.lastText(env.alice.id)).toBe(
			text('check-over-daily', { amount: '₦250.00', limit: '₦400.00', left: '₦150.00' }),
		);
		// Another user has their own allowance.
		await dataToConfirm(env, app, env.bob);
		await env.send(app, env.tg.buttonUpdate(env.bob, /^confirm:/));
		expect(await env.debits()).toBe(2);
	});

	test('a daily limit used up is said as a flow starts, before anything is typed', async () => {
		const app = await env.makeBot({ dailyLimitKobo: 25_000 });
		await dataToConfirm(env, app, env.alice);
		await env.send(app, env.tg.buttonUpdate(env.alice, /^confirm:/));
		expect(env.tg.lastText(env.alice.id)).toMatch(DELIVERED);
		const before = env.tg.textsTo(env.alice.id).length;
		for (const cmd of ['/airtime', '/sms', '/cable']) {
			await env.send(app, env.tg.textUpdate(env.alice, cmd));
			expect(env.tg.lastText(env.alice.id)).toBe(text('check-daily-used', { limit: '₦250.00' }));
		}
		expect(env.tg.textsTo(env.alice.id)).toHaveLength(before + 3); // no network, sender or provider question
		expect(await env.debits()).toBe(1);
	});
});

describe('nothing lost, nothing doubled', () => {
	test('duplicate updates (same update_id) are handled once', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		const start = env.tg.textUpdate(u, '/data');
		await env.send(app, start);
		await env.send(app, start);
		expect(env.tg.textsTo(u.id).filter((t) => t === 'Buy data: choose the network.')).toHaveLength(1);
		await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
		await env.send(app, env.tg.buttonUpdate(u, /^1GB SME /));
		await env.send(app, env.tg.textUpdate(u, '08031234567'));
		const confirm = env.tg.buttonUpdate(u, /^confirm:/);
		await Promise.all([env.send(app, confirm), env.send(app, confirm)]);
		await env.send(app, confirm);
		expect(await env.debits()).toBe(1);
		expect(env.tg.textsTo(u.id).filter((t) => t.startsWith('✅ Delivered'))).toHaveLength(1);
	});

	test('a double-tapped confirm (two updates) buys once; the second tap is told it is already bought', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await dataToConfirm(env, app, u);
		const tap1 = env.tg.buttonUpdate(u, /^confirm:/);
		const tap2 = env.tg.buttonUpdate(u, /^confirm:/);
		expect(tap2.update_id).not.toBe(tap1.update_id);
		await env.send(app, tap1);
		await env.send(app, tap2);
		expect(await env.debits()).toBe(1);
		const ref = app.journal.recentForUser(u.id)[0].id;
		expect(env.tg.answers().filter(Boolean)).toEqual([
			text('confirm-confirmed'),
			text('confirm-already-bought', { ref: ref! }),
		]);
	});

	test('double tap handled concurrently (webhook instances racing): one purchase, one result message', async () => {
		const app = await env.makeBot();
		const app2 = await env.makeBot(); // a second instance on the same journal
		const u = env.alice;
		await dataToConfirm(env, app, u);
		const tap1 = env.tg.buttonUpdate(u, /^confirm:/);
		const tap2 = env.tg.buttonUpdate(u, /^confirm:/);
		await Promise.all([env.send(app, tap1), env.send(app2, tap2), env.send(app, env.tg.buttonUpdate(u, /^confirm:/))]);
		expect(await env.debits()).toBe(1);
		expect(env.tg.textsTo(u.id).filter((t) => t.startsWith('✅ Delivered'))).toHaveLength(1);
		expect(app.journal.recentForUser(u.id).filter((o) => o.state === 'successful')).toHaveLength(1);
	});

	test("stale buttons are refused: after /cancel, and an old order's confirm while a new one waits", async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await dataToConfirm(env, app, u);
		const oldConfirm = env.tg.buttonUpdate(u, /^confirm:/);
		// its keyboard was edited away, a client may still send it
		const oldNetwork = env.tg.callbackUpdate(u, env.tg.botMessages(u.id)[0].message_id, 'net:1');
		await env.send(app, env.tg.textUpdate(u, '/cancel'));
		expect(env.tg.lastText(u.id)).toBe(text('flow-cancelled'));
		await env.send(app, oldConfirm);
		await env.send(app, oldNetwork);
		expect(env.tg.answers().filter(Boolean)).toEqual([text('button-expired'), text('button-expired')]);

		await dataToConfirm(env, app, u, { phone: '08061234567' });
		await env.send(
			app,
			env.tg.callbackUpdate(u, oldConfirm.callback_query.message.message_id, oldConfirm.callback_query.data),
		);
		expect(env.tg.answers().slice(-1)).toEqual([text('button-expired')]);
		expect(await env.debits()).toBe(0);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toMatch(
			new RegExp(
				`^${outcomeHead('successful', new RegExp(source('recipient-to', { what: /.*/, to: '0806 123 4567' })))}`,
			),
		);
		expect(await env.debits()).toBe(1);
		const states = app.journal.recentForUser(u.id).map((o) => o.state);
		expect(states).toEqual(['successful', 'cancelled']);
	});

	test('an abandoned flow times out: later messages are no longer swallowed, its confirm button is stale', async () => {
		// Walk to the confirm with the normal timeout (a busy machine may take any time over it), then
		// restart on the same file with a 1 ms timeout and let more than that pass.
		const first = await env.makeBot();
		const u = env.alice;
		await dataToConfirm(env, first, u);
		const confirm = env.tg.buttonUpdate(u, /^confirm:/);
		await first.close();
		first.db.close();
		env.bots.splice(env.bots.indexOf(first), 1);
		// The flow's conversation ended at the confirm message; the confirm button lives as long as confirmTtlMs.
		const app = await env.makeBot({ conversationTimeoutMs: 1, confirmTtlMs: 1 });
		await new Promise((r) => setTimeout(r, 20));
		await env.send(app, env.tg.textUpdate(u, 'hello'));
		expect(env.tg.lastText(u.id)).toBe(text('unhandled-text'));
		await env.send(app, confirm);
		expect(env.tg.answers().filter(Boolean)).toEqual([text('button-expired')]);
		expect(await env.debits()).toBe(0);
	});

	test('a restart mid-conversation resumes it (new bot instance, same SQLite file)', async () => {
		const app1 = await env.makeBot();
		const u = env.alice;
		await env.send(app1, env.tg.textUpdate(u, '/data'));
		await env.send(app1, env.tg.buttonUpdate(u, 'GLO'));
		await env.send(app1, env.tg.buttonUpdate(u, /^1GB /));
		await app1.close();
		app1.db.close();
		env.bots.splice(env.bots.indexOf(app1), 1);

		const app2 = await env.makeBot();
		await env.send(app2, env.tg.textUpdate(u, '0805 123 4567'));
		const glo = text('phone-target', { phone: '0805 123 4567', network: 'GLO' });
		expect(env.tg.lastText(u.id)).toMatch(
			confirmPattern({
				price: /₦[\d,.]+/,
				target: glo,
				gets: new RegExp(source('recipient-to', { what: /GLO data .*/, to: glo })),
			}),
		);
		await env.send(app2, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toMatch(new RegExp(`^✅ ${source('state-successful')}: GLO data`));
		expect(await env.debits()).toBe(1);
	});

	test('low balance refused BEFORE the confirm, with the shortfall; Try again keeps network, plan, number', async () => {
		// enough for the cheapest plan (the flow starts), short of 1GB
		const poor = await env.admin.createUser({ username: 'poor', balance: '200' });
		const app = await env.makeBot({}, env.dbPath, env.clientFor(poor.token));
		await dataToConfirm(env, app, env.alice);
		expect(env.tg.lastText(env.alice.id)).toBe(
			'Not enough in the wallet: it has ₦200.00, this costs ₦250.00 (₦50.00 short). Fund the wallet, then ' +
				'tap Try again. Nothing was bought.',
		);
		expect(env.tg.buttons(env.alice.id).map((b) => [b.text, b.data])).toEqual([
			[text('btn-try-again'), 'repeat:y'],
			[text('btn-cancel'), 'x'],
		]);
		expect(app.journal.recentForUser(env.alice.id)).toHaveLength(0);
		// /balance while the refusal waits: answered, the flow stays open
		await env.send(app, env.tg.textUpdate(env.alice, '/balance'));
		expect(env.tg.lastText(env.alice.id)).toMatch(/^💰 Wallet balance: ₦200\.00/);
		await env.admin.fund('poor', '200');
		await env.send(app, env.tg.buttonUpdate(env.alice, 'Try again'));
		// the same network, plan and number, checked again: straight to Confirm
		expect(env.tg.lastText(env.alice.id)).toMatch(
			pattern('confirm-question-for', {
				price: '₦250.00',
				target: text('phone-target', { phone: '0803 123 4567', network: 'MTN' }),
			}),
		);
		await env.send(app, env.tg.buttonUpdate(env.alice, /^confirm:/));
		expect(env.tg.lastText(env.alice.id)).toMatch(/^✅ Delivered/);
		expect((await env.admin.ledger('poor')).filter((e) => e.kind === 'debit')).toHaveLength(1);
	});

	test('vendor wallet short of the cheapest item: said at the flow start, with its balance and that price', async () => {
		const poor = await env.admin.createUser({ username: 'poor', balance: '1' });
		const app = await env.makeBot({}, env.dbPath, env.clientFor(poor.token));
		const cheapest = Math.min(...(await env.client.catalog.get()).exams.map((e) => e.price.kobo));
		await env.send(app, env.tg.textUpdate(env.alice, '/exampin'));
		const vars = { balance: '₦1.00', price: naira(cheapest), product: text('product-exam-pin') };
		expect(env.tg.lastText(env.alice.id)).toBe(text('check-below-cheapest', vars));
		expect(env.tg.buttons(env.alice.id).map((b) => b.data)).toEqual(['go:exam_pin', 'go:menu']);
		// funded since: the low figure seen a moment ago is read again before it refuses
		await env.admin.fund('poor', '5000');
		await env.send(app, env.tg.buttonUpdate(env.alice, text('btn-try-again')));
		expect(env.tg.lastText(env.alice.id)).toBe(text('exam-choose'));
		await env.send(app, env.tg.textUpdate(env.alice, '/cancel'));
		// a balance seen within the minute (this /balance) answers the next start: no vendor read
		await env.send(app, env.tg.textUpdate(env.alice, '/balance'));
		await env.admin.clearFaultLog();
		const fault = await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'error_before', count: 5 });
		await env.send(app, env.tg.textUpdate(env.alice, '/cards'));
		expect(env.tg.lastText(env.alice.id)).toBe(text('cards-choose-network'));
		expect(await env.admin.faultLog()).toEqual([]);
		await env.send(app, env.tg.textUpdate(env.alice, '/cancel'));
		// a balance that cannot be read blocks nothing (a new instance has seen none)
		const fresh = await env.makeBot({}, env.dbPath, env.clientFor(poor.token));
		await env.send(fresh, env.tg.textUpdate(env.bob, '/exampin'));
		expect(env.tg.lastText(env.bob.id)).toBe(text('exam-choose'));
		expect((await env.admin.faultLog()).length).toBeGreaterThan(0);
		await env.admin.removeFault(fault.id);
		expect(app.journal.recentForUser(env.alice.id)).toHaveLength(0);
	});

	test('the balance drops after the confirm: the vendor refuses, not charged, Try again buys the same', async () => {
		const poor = await env.admin.createUser({ username: 'poor', balance: '300' });
		const app = await env.makeBot({}, env.dbPath, env.clientFor(poor.token));
		await dataToConfirm(env, app, env.alice);
		expect(env.tg.lastText(env.alice.id)).toMatch(
			pattern('confirm-question-for', {
				price: /₦[\d,.]+/,
				target: text('phone-target', { phone: '0803 123 4567', network: 'MTN' }),
			}),
		);
		// Another buyer on the same wallet spends it meanwhile.
		await env.clientFor(poor.token).buy({ product: 'data', network: 1, plan: 2, phone: '08069999999' });
		await env.send(app, env.tg.buttonUpdate(env.alice, /^confirm:/));
		expect(env.tg.lastText(env.alice.id)).toBe(
			'❌ Failed (not charged): MTN data 1GB SME (30 days) to 0803 123 4567.\n' +
				'The wallet balance is too low for this purchase. Fund the wallet and try again.\n' +
				`${text('outcome-reference', { ref: app.journal.recentForUser(env.alice.id)[0].id })}\nYou were not charged.`,
		);
		expect(env.tg.buttons(env.alice.id).map((b) => b.text)).toEqual([text('btn-try-again'), text('btn-menu')]);
		expect(await env.admin.balanceKobo('poor')).toBe(5_000);
		expect(app.journal.recentForUser(env.alice.id)[0]).toMatchObject({
			state: 'not_charged',
			errorCode: 'insufficient_balance',
		});
		await env.admin.fund('poor', '250');
		await env.send(app, env.tg.buttonUpdate(env.alice, 'Try again'));
		expect(env.tg.lastText(env.alice.id)).toMatch(
			lines(
				['confirm-question-for', { price: '₦250.00', target: '0803 123 4567' }],
				['confirm-gets', { gets: what('MTN data 1GB SME (30 days)', '0803 123 4567') }],
				['confirm-pay', { price: '₦250.00' }],
			),
		);
		await env.send(app, env.tg.buttonUpdate(env.alice, /^confirm:/));
		expect(env.tg.lastText(env.alice.id)).toMatch(DELIVERED);
		expect((await env.admin.ledger('poor')).filter((e) => e.kind === 'debit')).toHaveLength(2);
	});

	test('sandbox timeout_after the debit: reconciled, one debit, the user told the real outcome', async () => {
		const app = await env.makeBot();
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'timeout_after', count: 1 });
		await dataToConfirm(env, app, env.alice);
		await env.send(app, env.tg.buttonUpdate(env.alice, /^confirm:/));
		expect(env.tg.lastText(env.alice.id)).toMatch(
			lines(
				[
					'outcome-head',
					{ icon: '✅', label: text('state-successful'), what: what('MTN data 1GB SME (30 days)', '0803 123 4567') },
				],
				['outcome-charged', { charged: '₦250.00' }],
				['outcome-reference', { ref: /\S+/ }],
			),
		);
		const debits = (await env.demoLedger()).filter((e) => e.kind === 'debit');
		expect(debits).toHaveLength(1);
		expect(debits[0].amountKobo).toBe(25_000);
		const o = app.journal.recentForUser(env.alice.id)[0];
		expect(o.state).toBe('successful');
		expect((o.result as any).path).toBe('reconciled');
		expect(o.ident).toBe(debits[0].ident);
	});

	test.each(['reset_after', 'html_after'] as const)('sandbox %s: reconciled, exactly one debit', async (kind) => {
		const app = await env.makeBot();
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind, count: 1 });
		await dataToConfirm(env, app, env.alice);
		await env.send(app, env.tg.buttonUpdate(env.alice, /^confirm:/));
		expect(env.tg.lastText(env.alice.id)).toMatch(DELIVERED);
		expect(await env.debits()).toBe(1);
	});

	test('sandbox error_before (500 before any debit): not charged, no debit', async () => {
		const app = await env.makeBot();
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'error_before', count: 1 });
		await dataToConfirm(env, app, env.alice);
		await env.send(app, env.tg.buttonUpdate(env.alice, /^confirm:/));
		expect(env.tg.lastText(env.alice.id)).toMatch(new RegExp(`^${notChargedOutcome(/.*/)}`));
		expect(await env.debits()).toBe(0);
	});
});

describe('secrets', () => {
	test('a refused API token is reported without it; Bot API errors are logged without the bot token', async () => {
		const bad = 'b'.repeat(40);
		const app = await env.makeBot({}, env.dbPath, env.clientFor(bad));
		await env.send(app, env.tg.textUpdate(env.alice, '/balance'));
		expect(env.tg.lastText(env.alice.id)).toBe(
			"Could not read the balance: The provider refused the bot's login. Tell the bot admin.",
		);
		env.tg.failNext('sendMessage', { error_code: 400, description: 'Bad Request: chat not found' });
		await env.send(app, env.tg.textUpdate(env.alice, '/help'));
		const failed = env.logs.filter((l) => l.includes('"update failed"'));
		expect(failed).toHaveLength(1);
		expect(failed[0]).toContain('chat not found');
		for (const s of [bad, 'test_secret_token_value']) {
			for (const l of env.logs) expect(l).not.toContain(s);
			for (const c of env.tg.calls) expect(JSON.stringify(c.payload)).not.toContain(s);
		}
	});
});
