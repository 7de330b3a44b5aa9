/**
 * Storefront mode with the bot itself in Telegram webhook mode, for real: two bot processes
 * (bench/chaos-storefront-bot.ts, started as bot/main.ts starts the bot, from the bot's own configuration)
 * on one store database and one journal, each with its Telegram webhook server (PORT, WEBHOOK_SECRET) and its
 * payment webhook server (STORE_WEBHOOK_PORT), on one local Bot API. Updates are HTTP POSTs to the bots'
 * webhooks, spread over both instances mid-conversation; payments are signed provider webhooks from the
 * payment sandbox to both store endpoints at once. On SQLite (two processes on one file) and Postgres.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { database } from '../../bench/chaos-storefront';
import {
	BOT_TOKEN,
	BotProc,
	botEnv,
	HOOK_SECRET,
	OWNER_ID,
	openDbAt,
	SECRETS,
} from '../../bench/chaos-storefront-bots';
import { SandboxAdmin } from '../../sandbox/admin-client';
import { startSandbox } from '../../sandbox/server';
import { audit, Books } from '../../store/ledger';
import { signBody } from '../../store/payments';
import { PaymentSandbox } from '../../store/sandbox/payments';
import { FakeTelegram, makeUser } from '../../tools/local-bot-api';
import { backendNames } from '../store/backends';
import { pattern, text, NAIRA } from './texts';

jest.setTimeout(120_000);

describe.each(backendNames())('storefront bots in webhook mode on %s', (backend) => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-sf-webhook-'));
	let sb: Awaited<ReturnType<typeof startSandbox>>;
	let tg: FakeTelegram;
	let pay: PaymentSandbox;
	let db: { url: string; stop(): Promise<void> };
	const bots: BotProc[] = [];
	const provider = backend === 'postgres' ? 'paystack' : 'monnify';

	beforeAll(async () => {
		sb = await startSandbox({ port: 0, dialect: 'family', seed: 5 });
		tg = await new FakeTelegram().start();
		pay = new PaymentSandbox({ ...SECRETS, webhookUrls: { paystack: [], monnify: [] } });
		await pay.start();
		db = await database(backend, dir);
		const admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
		// just above the alert threshold (STORE_LOW_FLOAT_NAIRA 1000) plus one order: the second order crosses it
		const { token } = await admin.createUser({ username: 'shop', balance: '1300.00' });
		const infra = { dbUrl: db.url, dir, vendorUrl: sb.baseUrl, token, payUrl: pay.url, tg };
		for (let k = 0; k < 2; k++) bots.push(await BotProc.start(botEnv(backend, infra, k)));
		for (const b of bots) pay.opts.webhookUrls[provider].push(`${b.webhookUrl}/webhooks/${provider}`);
	});
	afterAll(async () => {
		for (const b of bots) await b.stop();
		await pay?.stop();
		await tg?.close();
		await sb?.close();
		await db?.stop();
		fs.rmSync(dir, { recursive: true, force: true });
	});

	const post = async (b: BotProc, update: unknown) => expect(await b.post(update)).toBe(200);

	test('each instance set its webhook with the secret; a call without it is refused; both are healthy', async () => {
		const set = tg.callsOf('setWebhook');
		expect(set).toHaveLength(2);
		for (const c of set) expect(c.payload).toMatchObject({ url: 'https://shop.example/tg', secret_token: HOOK_SECRET });
		const u = makeUser(6_200_001, 'Mallory');
		const res = await fetch(bots[0].botUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'not-the-secret-0123' },
			body: JSON.stringify(tg.textUpdate(u, '/start')),
		});
		expect(res.status).toBe(401);
		expect(tg.textsTo(u.id)).toEqual([]);
		for (const b of bots) {
			expect((await fetch(new URL('/healthz', b.botUrl))).status).toBe(200);
			expect((await fetch(`${b.webhookUrl}/healthz`)).status).toBe(200);
		}
	});

	test('a customer across both instances: one account, one credit told once, one order for a double tap', async () => {
		const u = makeUser(6_200_002, 'Ada');
		await post(bots[0], tg.textUpdate(u, '/start'));
		const account = /Your account: (\d+)/.exec(await tg.waitForText(u.id, /Your account: \d+/))![1];
		await post(bots[1], tg.textUpdate(u, '/start'));
		expect(/Your account: (\d+)/.exec(tg.lastText(u.id)!)![1]).toBe(account);
		// a signed transfer delivered twice to both store endpoints at the same moment
		const sent = await pay.transfer({
			provider,
			accountNumber: account,
			amount: 500_000,
			deliveries: 2,
			concurrent: true,
		});
		expect(sent.deliveries.map((d) => d.outcome).sort()).toEqual(['credited', 'duplicate', 'duplicate', 'duplicate']);
		const landed = () =>
			tg.textsTo(u.id).filter((t) => pattern('sf-payment-landed', { amount: NAIRA, balance: NAIRA }).test(t));
		expect(landed()).toEqual([text('sf-payment-landed', { amount: '₦5,000.00', balance: '₦5,000.00' })]);
		// a forged one (another key's signature) at the second instance: refused, nothing credited
		const raw = JSON.stringify(
			provider === 'paystack'
				? { event: 'charge.success', data: { reference: 'FORGED1', status: 'success', amount: 9_000_000 } }
				: {
						eventType: 'SUCCESSFUL_TRANSACTION',
						eventData: { transactionReference: 'FORGED1', amountPaid: '90000.00' },
					},
		);
		const header = provider === 'paystack' ? 'x-paystack-signature' : 'monnify-signature';
		const forged = await fetch(`${bots[1].webhookUrl}/webhooks/${provider}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', [header]: signBody('a-guessed-secret', raw) },
			body: raw,
		});
		expect(forged.status).toBe(401);
		await post(bots[1], tg.textUpdate(u, '/balance'));
		expect(tg.lastText(u.id)).toBe(text('sf-balance', { balance: '₦5,000.00' }));
		// the /data conversation hops between the instances (one journal), then Confirm is tapped twice at once
		await post(bots[0], tg.textUpdate(u, '/data'));
		await post(bots[1], tg.buttonUpdate(u, 'MTN'));
		await post(bots[0], tg.buttonUpdate(u, /^1GB SME /));
		await post(bots[1], tg.textUpdate(u, '0803 123 4567'));
		const confirm = tg.findButton(u.id, /^pay:y$/)!;
		await Promise.all(bots.map((b) => post(b, tg.callbackUpdate(u, confirm.messageId, 'pay:y'))));
		await tg.waitFor(() =>
			tg
				.textsTo(u.id)
				.some((t) => pattern('sf-receipt', { gets: /.+/, price: NAIRA, ref: /\S+/, balance: NAIRA }).test(t)),
		);
		const receipt = pattern('sf-receipt', { gets: /.+/, price: NAIRA, ref: /\S+/, balance: NAIRA });
		// the second tap (the other instance) leaves the message to the first one's purchase, or shows the same
		// receipt once it has ended: both taps are handled now, and the message is the receipt; nothing says
		// "order id … already used"
		expect(tg.textsTo(u.id).filter((t) => /already used/.test(t))).toEqual([]);
		const message = tg.botMessages(u.id).find((m) => m.message_id === confirm.messageId)!;
		expect(message.text).toMatch(receipt);
		const opened = await openDbAt(db.url);
		try {
			const orders = await opened.db.selectFrom('orders').selectAll().execute();
			expect(orders.map((o) => o.state)).toEqual(['settled']);
			const admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
			expect(await admin.transactions({ username: 'shop' })).toHaveLength(1);
			const r = await audit(opened.db);
			expect(r.problems).toEqual([]);
			expect(r.paidIn).toBe(500_000);
			expect(r.spent).toBe(orders[0].price);
			expect(r.wallets).toBe(500_000 - orders[0].price);
		} finally {
			await opened.close();
		}
	});

	test('the vendor wallet falls under the threshold: one owner alert, whichever instance sees it', async () => {
		const users = [makeUser(6_200_003, 'Bola'), makeUser(6_200_004, 'Chidi'), makeUser(6_200_005, 'Dayo')];
		// each wallet holds the cheapest plan's price: enough to start (less is refused as the flow starts, and
		// says that price), short of 1GB at Confirm
		const seed = async (kobo: number) => {
			const opened = await openDbAt(db.url);
			try {
				const books = new Books(opened.db);
				for (const u of users) {
					await books.createCustomer(String(u.id));
					await books.adjust(String(u.id), kobo, 'test kobo', `seed-${u.id}-${kobo}`);
				}
			} finally {
				await opened.close();
			}
		};
		await seed(1);
		await post(bots[0], tg.textUpdate(users[0], '/data'));
		const refusal = pattern('sf-wallet-below-cheapest', {
			available: '₦0.01',
			price: /₦([\d,]+)\.(\d\d)/,
			product: /.+/,
		});
		const m = refusal.exec(tg.lastText(users[0].id) ?? '');
		expect(m).not.toBeNull();
		const cheapest = Number(m![1].replace(/,/g, '')) * 100 + Number(m![2]);
		await seed(cheapest - 1);
		// three customers reach Confirm at the same time, each conversation on both instances in turn
		await Promise.all(
			users.map(async (u, k) => {
				const [a, b] = k % 2 ? [bots[1], bots[0]] : [bots[0], bots[1]];
				await post(a, tg.textUpdate(u, '/data'));
				await post(b, tg.buttonUpdate(u, 'MTN'));
				await post(a, tg.buttonUpdate(u, /^1GB SME /));
				await post(b, tg.textUpdate(u, '0803 765 4321'));
			}),
		);
		const alerts = tg.textsTo(OWNER_ID).filter((t) => t.startsWith(text('sf-owner-low-float', { detail: '' })));
		expect(alerts).toHaveLength(1);
		// the vendor wallet still covers the order, so the customers are only told their wallets are short
		for (const u of users)
			expect(tg.lastText(u.id)).toMatch(
				pattern('sf-wallet-short', { price: NAIRA, available: `₦${(cheapest / 100).toFixed(2)}` }),
			);
	});

	test('the instances logged what they did, and no secret', () => {
		const logs = [0, 1].map((k) => fs.readFileSync(path.join(dir, `bot${k}.log`), 'utf8')).join('\n');
		expect(logs).toMatch(/refused/); // the forged payment webhook
		const secrets = [BOT_TOKEN, HOOK_SECRET, SECRETS.paystackSecret, SECRETS.monnifySecret, SECRETS.monnifyApiKey];
		for (const secret of secrets) expect(logs).not.toContain(secret);
	});
});
