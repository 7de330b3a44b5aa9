/**
 * The owner's desk end to end, storefront mode: the real bot over the local Bot API, the real merchant and
 * payment sandboxes over HTTP, the store on SQLite and on a private Postgres cluster. The owner changes a
 * price and sees the margin, a customer reads it in /prices and pays it, the owner reads /report and its
 * CSV (reconciled with the ledger), looks a customer up, broadcasts, answers /support; the daily summary
 * goes out once across two instances (driven by its trigger); the owner is alerted when the vendor refuses
 * the token. And the till: a stranger asking for access alerts the admin once and waits in /users.
 */
import { VtuClient } from '../../client';
import { naira } from '../../bot/orders';
import { reportDays } from '../../bot/features/owner-desk';
import { chunks, parseSetPrice } from '../../bot/features/owner-prices';
import type { VtuBot } from '../../bot/bot';
import { createLogger } from '../../bot/logger';
import { StoreSide } from '../../bot/storefront/service';
import { startPaymentWebhooks } from '../../bot/storefront/webhooks';
import { audit } from '../../store/ledger';
import { paystack } from '../../store/payments';
import { buildReport, dayBounds, lagosDay } from '../../store/report';
import { PaymentSandbox } from '../../store/sandbox/payments';
import { backendNames, startBackend, type Backend } from '../store/backends';
import type { FakeUser } from './fake-telegram';
import { dataToConfirm, useBotEnv } from './harness';
import { pattern, text, NAIRA } from './texts';

const SECRET = 'sk_test_owner_desk_0123456789abcdef';
const ADMIN_KEY = 'pay-admin-key-owner-desk';

test('what the owner types: /setprice, /report days; long lists cut under the message limit', () => {
	expect(parseSetPrice('data MTN SME 5%')).toEqual({
		product: 'data',
		scope: 'type:MTN SME',
		tier: 'regular',
		markup: { percent: '5' },
	});
	expect(parseSetPrice('data plan 7 ₦20 reseller')).toEqual({
		product: 'data',
		scope: 'plan:7',
		tier: 'reseller',
		markup: { fixedKobo: 2_000 },
	});
	expect(parseSetPrice('all 2.5%')).toMatchObject({ product: '*', scope: '', markup: { percent: '2.5' } });
	expect(parseSetPrice('exam WAEC off')).toMatchObject({ product: 'exam_pin', scope: 'type:WAEC', markup: 'off' });
	for (const bad of ['', 'data', 'tv 5%', 'data MTN SME', 'all MTN 5%', 'data 500%'])
		expect(parseSetPrice(bad)).toBeNull();
	const now = new Date('2026-11-24T23:30:00Z'); // 00:30 on the 25th in Lagos
	expect(reportDays('', now)).toEqual({ first: '2026-11-25', last: '2026-11-25' });
	expect(reportDays('yesterday', now)).toEqual({ first: '2026-11-24', last: '2026-11-24' });
	expect(reportDays('2026-11-01 2026-11-30', now)).toEqual({ first: '2026-11-01', last: '2026-11-30' });
	for (const bad of ['last week', '2026-11-01 to 2026-11-30', '24/11/2026']) expect(reportDays(bad, now)).toBeNull();
	const lines = Array.from({ length: 300 }, (_, i) => `line ${i} ${'x'.repeat(20)}`);
	const parts = chunks(lines);
	expect(parts.length).toBeGreaterThan(1);
	for (const p of parts) expect(p.length).toBeLessThanOrEqual(3500);
	expect(parts.join('\n')).toBe(lines.join('\n'));
});

describe.each(backendNames())("the owner's desk on %s", (name) => {
	const env = useBotEnv();
	let backend: Backend;
	beforeAll(async () => {
		backend = await startBackend(name);
	}, 120_000);
	afterAll(async () => {
		await backend?.stop();
	});

	/** Storefront bot instance(s) on one fresh store (markup 10% + ₦50 where the owner set no price). */
	async function shop(opts: { instances?: number; client?: VtuClient } = {}) {
		const db = await backend.fresh();
		const pay = new PaymentSandbox({
			paystackSecret: SECRET,
			monnifyApiKey: 'MK_TEST_DESK',
			monnifySecret: 'monnify-secret-desk-0123',
			adminKey: ADMIN_KEY,
			webhookUrls: { paystack: [], monnify: [] },
		});
		const base = await pay.start();
		env.cleanup(() => pay.stop());
		const sides: StoreSide[] = [];
		const apps: VtuBot[] = [];
		for (let i = 0; i < (opts.instances ?? 1); i++) {
			const side = new StoreSide({
				opened: await db.open(),
				client: opts.client ?? env.client,
				provider: paystack({ secretKey: SECRET, baseUrl: `${base}/paystack` }),
				pricing: { markupPercent: '10', markupKobo: 5_000 },
				lowFloatKobo: 0,
				ownerIds: [env.admin1.id],
				logger: createLogger({ level: 'debug', secrets: [], write: (l) => env.logs.push(l) }),
			});
			await side.init();
			const journal = i === 0 ? env.dbPath : `${env.dir}/bot${i}.sqlite`;
			const app = await env.makeBot({}, journal, opts.client ?? env.client, { storefront: side });
			const hooks = await startPaymentWebhooks(side, 0, '127.0.0.1');
			pay.opts.webhookUrls.paystack.push(`http://127.0.0.1:${hooks.port}/webhooks/paystack`);
			env.cleanup(async () => {
				await hooks.close();
				await side.close();
			});
			sides.push(side);
			apps.push(app);
		}
		const fund = async (u: FakeUser, amount: number) => {
			await env.send(apps[0], env.tg.textUpdate(u, '/start'));
			const account = /Your account: (\d+)/.exec(await env.tg.waitForText(u.id, /Your account: \d+/))![1];
			const res = await fetch(`${base}/admin/transfer`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-admin-key': ADMIN_KEY },
				body: JSON.stringify({ provider: 'paystack', accountNumber: account, amount }),
			});
			expect(res.status).toBe(200);
		};
		return { side: sides[0], app: apps[0], sides, apps, fund };
	}

	const owner = async (app: VtuBot, cmd: string) => {
		await env.send(app, env.tg.textUpdate(env.admin1, cmd));
		return env.tg.lastText(env.admin1.id)!;
	};

	test('the owner sets a price, sees the margin; the customer sees it in /prices, pays it; /report, CSV', async () => {
		const s = await shop();
		await s.fund(env.alice, 500_000);
		const set = (await owner(s.app, '/setprice data MTN SME 5%')).split('\n');
		expect(set[0]).toBe(text('setprice-set', { rule: 'data MTN SME (regular)', markup: '5%' }));
		expect(set).toContain(
			text('setprice-margin', { name: '1GB SME (30 days)', cost: '₦250.00', price: '₦262.50', margin: '₦12.50' }),
		);
		// a customer may not set prices; a plan type that does not exist is named, with the ones that do
		await env.send(s.app, env.tg.textUpdate(env.alice, '/setprice data MTN SME 1%'));
		expect(env.tg.lastText(env.alice.id)).toBe(text('admin-only'));
		expect(await owner(s.app, '/setprice data MTN TURBO 5%')).toMatch(
			pattern('setprice-unknown', { what: 'MTN TURBO', types: /.*MTN SME.*/ }),
		);
		expect(await owner(s.app, '/setprice data MTN SME five')).toBe(text('setprice-usage'));
		// a day that does not exist: what is wrong in the catalogue's words (bot/refusals.ts), then the usage
		expect(await owner(s.app, '/report 2026-02-30')).toBe(
			text('input-problem', {
				problem: text('report-date-invalid', { day: '2026-02-30' }),
				hint: text('report-usage'),
			}),
		);
		// electricity by disco: shown on a sample token of that disco
		const ikeja = (await owner(s.app, '/setprice electricity Ikeja Electric ₦100')).split('\n');
		expect(ikeja).toEqual([
			text('setprice-set', { rule: 'electricity IKEJA ELECTRIC (regular)', markup: '₦100.00' }),
			text('setprice-margin', {
				name: `IKEJA ELECTRIC ${text('prices-electricity-item', { amount: '₦5,000.00' })}`,
				cost: '₦5,000.00',
				price: '₦5,100.00',
				margin: '₦100.00',
			}),
		]);

		await env.send(s.app, env.tg.textUpdate(env.alice, '/prices'));
		const list = env.tg.lastText(env.alice.id)!.split('\n');
		expect(list[0]).toBe(text('prices-head'));
		const mtn = list.indexOf(text('prices-section-data', { network: 'MTN' }));
		expect(mtn).toBeGreaterThan(0);
		expect(list.slice(mtn)).toContain(text('prices-line', { name: '1GB SME (30 days)', price: '₦262.50' }));
		// the main menu's Prices button shows the same list
		await env.send(s.app, env.tg.buttonUpdate(env.alice, text('menu-prices')));
		expect(env.tg.lastText(env.alice.id)).toBe(list.join('\n'));
		// without a rule: the general markup (10% + ₦50)
		const waec = (await env.client.catalog.exams()).find((e) => e.exam === 'WAEC')!.price.kobo;
		const general = waec + Math.round(waec / 10) + 5_000;
		expect(list).toContain(
			text('prices-line', { name: text('prices-exam-item', { exam: 'WAEC' }), price: naira(general) }),
		);

		await dataToConfirm(env, s.app, env.alice);
		expect(env.tg.lastText(env.alice.id)).toContain(text('sf-confirm-from-wallet', { price: '₦262.50' }));
		await env.send(s.app, env.tg.buttonUpdate(env.alice, /^pay:y$/));
		expect(env.tg.lastText(env.alice.id)).toMatch(
			pattern('sf-receipt', { gets: /.+/, price: '₦262.50', ref: /\S+/, balance: '₦4,737.50' }),
		);

		const summary = await owner(s.app, '/report');
		const today = lagosDay(new Date());
		expect(summary).toBe(
			text('owner-summary', {
				title: text('owner-summary-day', { day: today }),
				orders: 1,
				sales: '₦262.50',
				cost: '₦250.00',
				refunds: '₦0.00',
				profit: '₦12.50',
				payments: 1,
				paidIn: '₦5,000.00',
				fees: '₦0.00',
				net: '₦12.50',
			}),
		);
		const doc = env.tg.callsOf('sendDocument').slice(-1)[0];
		expect(doc.payload.chat_id).toBe(env.admin1.id);
		const csv = Object.values(doc.payload).find((v) => typeof v === 'string' && v.startsWith('time,type,')) as string;
		const order = csv
			.split('\n')
			.find((l) => l.includes(',order,'))!
			.split(',');
		expect(order.slice(3, 8)).toEqual([String(env.alice.id), '262.50', '250.00', '0.00', '12.50']);
		// the report is the ledger's: its totals are the audit's
		const a = await audit(s.side.books.db);
		expect(a.problems).toEqual([]);
		const r = await buildReport(s.side.books.db, dayBounds(today).from, dayBounds(today).to);
		expect([r.sales, r.paidIn]).toEqual([a.spent, a.paidIn]);
		expect(csv).toContain(`,total,profit,,12.50,`);
		await env.send(s.app, env.tg.textUpdate(env.alice, '/report'));
		expect(env.tg.lastText(env.alice.id)).toBe(text('admin-only'));
		expect(await owner(s.app, '/report 2026-02-30')).toMatch(/YYYY-MM-DD/);

		// the customer's card: wallet and the ledger's entries, by @username
		const card = (await owner(s.app, `/customer @${env.alice.username}`)).split('\n');
		const since = (
			await s.side.books.db
				.selectFrom('customers')
				.select('created_at')
				.where('id', '=', String(env.alice.id))
				.executeTakeFirstOrThrow()
		).created_at.slice(0, 10);
		expect(card.slice(0, 2).join('\n')).toBe(
			text('customer-card', {
				id: String(env.alice.id),
				name: 'Alice',
				username: `@${env.alice.username}`,
				tier: 'regular',
				balance: '₦4,737.50',
				held: '₦0.00',
				available: '₦4,737.50',
				since,
			}),
		);
		expect(card.filter((l) => l.includes(text('ledger-settle')))).toHaveLength(1);
		// the order's money leaves the wallet once: its hold is the only minus, its settle has no sign
		expect(card.filter((l) => l.includes('−₦262.50'))).toEqual([expect.stringContaining(text('ledger-hold'))]);
		expect(card.filter((l) => l.includes(` ₦262.50 ${text('ledger-settle')}`))).toHaveLength(1);
		expect(card.filter((l) => l.includes(`+₦5,000.00 ${text('ledger-payment')}`))).toHaveLength(1);
		expect(await owner(s.app, '/customer @nobody_here')).toBe(text('customer-not-found', { who: '@nobody_here' }));
	});

	test('tiers: a reseller sees and pays the reseller price; a price changed after the offer is refused', async () => {
		const s = await shop();
		await s.fund(env.bob, 500_000);
		expect(await owner(s.app, `/tier ${env.bob.id} reseller`)).toBe(
			text('tier-set', { customer: String(env.bob.id), tier: 'reseller' }),
		);
		await owner(s.app, '/setprice data 2% reseller');
		await env.send(s.app, env.tg.textUpdate(env.bob, '/prices'));
		const list = env.tg.lastText(env.bob.id)!.split('\n');
		expect(list[0]).toBe(text('prices-head-tier', { tier: 'reseller' }));
		expect(list).toContain(text('prices-line', { name: '1GB SME (30 days)', price: '₦255.00' }));
		// the plan list shows the reseller's price; then the owner changes it before Confirm is tapped
		await env.send(s.app, env.tg.textUpdate(env.bob, '/data'));
		await env.send(s.app, env.tg.buttonUpdate(env.bob, 'MTN'));
		await env.send(s.app, env.tg.buttonUpdate(env.bob, /^1GB SME ₦255\.00/));
		await env.send(s.app, env.tg.textUpdate(env.bob, '0803 123 4567'));
		await owner(s.app, '/setprice data 3% reseller');
		await env.send(s.app, env.tg.buttonUpdate(env.bob, /^pay:y$/));
		expect(env.tg.lastText(env.bob.id)).toBe(text('sf-price-changed'));
		expect(await env.debits()).toBe(0);
		expect(await s.side.books.walletBalance(String(env.bob.id))).toMatchObject({ available: 500_000, held: 0 });
		// removed: back to the general price (10% + ₦50)
		expect((await owner(s.app, '/setprice data off reseller')).split('\n')[0]).toBe(
			text('setprice-removed', { rule: 'data (reseller)' }),
		);
		await env.send(s.app, env.tg.textUpdate(env.bob, '/prices'));
		expect(env.tg.lastText(env.bob.id)!.split('\n')).toContain(
			text('prices-line', { name: '1GB SME (30 days)', price: '₦325.00' }),
		);
	});

	test('the daily summary goes to the owner once, across two instances, when its hour has come', async () => {
		const s = await shop({ instances: 2 });
		await s.fund(env.alice, 300_000);
		const now = new Date();
		const today = lagosDay(now);
		// 09:00 Lagos tomorrow: today's summary is due
		const tomorrow9 = new Date(Date.parse(dayBounds(today).to) + 9 * 3_600_000);
		const early = new Date(Date.parse(dayBounds(today).to) + 3 * 3_600_000);
		expect(await s.sides[0].daily.tick(early)).toBeNull();
		const [a, b] = await Promise.all([s.sides[0].daily.tick(tomorrow9), s.sides[1].daily.tick(tomorrow9)]);
		expect([a, b].filter(Boolean)).toEqual([today]);
		expect(await s.sides[1].daily.tick(new Date(tomorrow9.getTime() + 3_600_000))).toBeNull();
		const sent = env.tg.textsTo(env.admin1.id).filter((x) => x.startsWith('📊'));
		expect(sent).toEqual([
			expect.stringMatching(
				pattern('owner-summary', {
					title: today,
					orders: 0,
					sales: '₦0.00',
					cost: '₦0.00',
					refunds: '₦0.00',
					profit: '₦0.00',
					payments: 1,
					paidIn: '₦3,000.00',
					fees: NAIRA,
					net: /.+/,
				}),
			),
		]);
	});

	test('broadcast reaches every customer once; /support reaches the owner and /reply the customer', async () => {
		const s = await shop();
		await s.fund(env.alice, 10_000);
		await s.fund(env.bob, 10_000);
		const cmd = env.tg.textUpdate(env.admin1, '/broadcast MTN data is back!');
		await env.send(s.app, cmd);
		await env.tg.waitForText(env.admin1.id, pattern('broadcast-done', { sent: 2, failed: 0 }));
		await env.send(s.app, { ...cmd, update_id: cmd.update_id + 1_000_000 }); // delivered again: nobody twice
		await env.tg.waitForText(env.admin1.id, pattern('broadcast-done', { sent: 0, failed: 0 }));
		for (const u of [env.alice, env.bob])
			expect(env.tg.textsTo(u.id).filter((x) => x === 'MTN data is back!')).toHaveLength(1);

		await env.send(s.app, env.tg.textUpdate(env.alice, '/support'));
		expect(env.tg.lastText(env.alice.id)).toBe(text('support-usage'));
		await env.send(s.app, env.tg.textUpdate(env.alice, '/support my data did not arrive'));
		expect(env.tg.lastText(env.alice.id)).toBe(text('support-sent'));
		expect(env.tg.lastText(env.admin1.id)).toBe(
			text('support-to-owner', {
				who: `Alice (@${env.alice.username})`,
				id: String(env.alice.id),
				text: 'my data did not arrive',
			}),
		);
		expect(await owner(s.app, `/reply ${env.alice.id} It is sorted now.`)).toBe(
			text('reply-sent', { customer: String(env.alice.id) }),
		);
		expect(env.tg.lastText(env.alice.id)).toBe(text('support-answer', { text: 'It is sorted now.' }));
	});

	test("broadcast within Telegram's limits: a 429 'retry after' waited out, nobody missed or sent twice", async () => {
		const s = await shop();
		await s.fund(env.alice, 10_000);
		await s.fund(env.bob, 10_000);
		// Telegram answers the broadcast's first message 429 (flood control): armed once "Sending to…" is
		// recorded, so it is the broadcast's own first sendMessage that is refused
		const started = text('broadcast-started', { count: 2 });
		const off = env.tg.onCall((c) => {
			if (c.method !== 'sendMessage' || c.payload.text !== started) return;
			off();
			env.tg.failNext('sendMessage', {
				error_code: 429,
				description: 'Too Many Requests: retry after 1',
				parameters: { retry_after: 1 },
			});
		});
		await env.send(s.app, env.tg.textUpdate(env.admin1, '/broadcast Airtime is 2% off today'));
		await env.tg.waitForText(env.admin1.id, pattern('broadcast-done', { sent: 2, failed: 0 }));
		const calls = env.tg.callsOf('sendMessage').filter((c) => c.payload.text === 'Airtime is 2% off today');
		expect(calls).toHaveLength(3); // the refused one, its retry, the other customer
		// delivered (answered ok) once to each
		const delivered = calls.filter((c) => c.result !== undefined).map((c) => Number(c.payload.chat_id));
		expect(delivered.sort()).toEqual([env.alice.id, env.bob.id].sort());
	});

	test('the vendor refuses the token: the owner is alerted once', async () => {
		const s = await shop({ client: env.clientFor('not-a-valid-token-0000') });
		await s.fund(env.alice, 500_000); // an empty wallet is refused before any vendor call
		for (let i = 0; i < 2; i++) await env.send(s.app, env.tg.textUpdate(env.alice, '/data'));
		await env.tg.waitFor(() => env.tg.textsTo(env.admin1.id).includes(text('owner-alert-token')));
		await env.send(s.app, env.tg.textUpdate(env.alice, '/data'));
		expect(env.tg.textsTo(env.admin1.id).filter((x) => x === text('owner-alert-token'))).toHaveLength(1);
	});
});

describe('the till: access requests and alerts', () => {
	const env = useBotEnv();
	test('a stranger asking alerts the admin once and waits in /users until allowed', async () => {
		const app = await env.makeBot();
		for (let i = 0; i < 2; i++) await env.send(app, env.tg.textUpdate(env.stranger, '/start'));
		const user = `Stranger (@${env.stranger.username}, ${env.stranger.id})`;
		const alert = text('owner-access-request', { user, id: String(env.stranger.id) });
		expect(env.tg.textsTo(env.admin1.id).filter((x) => x === alert)).toHaveLength(1);
		await env.send(app, env.tg.textUpdate(env.admin1, '/users'));
		expect(env.tg.lastText(env.admin1.id)!.split('\n').slice(-2)).toEqual([text('admin-pending'), user]);
		await env.send(app, env.tg.textUpdate(env.admin1, `/allow ${env.stranger.id}`));
		await env.send(app, env.tg.textUpdate(env.admin1, '/users'));
		expect(env.tg.lastText(env.admin1.id)).not.toContain(text('admin-pending'));
		expect(env.tg.lastText(env.admin1.id)).toContain(user);
	});

	test('the vendor refuses the token: the admins are alerted once', async () => {
		const app = await env.makeBot({}, env.dbPath, env.clientFor('not-a-valid-token-0000'));
		for (let i = 0; i < 2; i++) await env.send(app, env.tg.textUpdate(env.alice, '/data'));
		await env.tg.waitFor(() => env.tg.textsTo(env.admin1.id).includes(text('owner-alert-token')));
		await env.send(app, env.tg.textUpdate(env.bob, '/data'));
		expect(env.tg.textsTo(env.admin1.id).filter((x) => x === text('owner-alert-token'))).toHaveLength(1);
	});
});
