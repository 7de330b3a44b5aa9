/**
 * `npm run demo -- --storefront` (or `npx tsx tools/storefront-demo.ts`): watch a storefront customer fund
 * a wallet and buy, with no real money and no Telegram account. Everything runs here: the merchant-API
 * sandbox (the vendor), the payment sandbox (a Paystack stand-in, store/sandbox/payments.ts), the local
 * Bot API, and the real bot in storefront mode with its ledger in a temporary SQLite file (or on Postgres
 * when DATABASE_URL is set). The chat is printed as it happens; the books are audited at the end.
 * For a chat you type yourself: `npm run bot:try -- --storefront`.
 */
import crypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VtuClient } from '../client';
import { formatNaira } from '../client/money';
import { createBot, type VtuBot } from '../bot/bot';
import { openDatabase } from '../bot/db';
import { createLogger } from '../bot/logger';
import { StoreSide } from '../bot/storefront/service';
import { startPaymentWebhooks } from '../bot/storefront/webhooks';
import { SandboxAdmin } from '../sandbox/admin-client';
import { startSandbox } from '../sandbox/server';
import { audit } from '../store/ledger';
import { openStoreDb } from '../store/db';
import { paystack } from '../store/payments';
import { PaymentSandbox } from '../store/sandbox/payments';
import { FakeTelegram, makeUser, type FakeUser } from './local-bot-api';

const TOKEN = '1000002:local-demo-token-not-a-real-bot-00000';
const say = (line: string) => process.stdout.write(`${line}\n`);
const money = (kobo: number) => formatNaira(kobo, { symbol: true, grouping: true });

/** Prints what the bot sends to `u`, as a chat. */
function showChat(tg: FakeTelegram, u: FakeUser) {
	tg.onCall((c) => {
		if (Number(c.payload.chat_id) !== u.id) return;
		if (c.method !== 'sendMessage' && c.method !== 'editMessageText') return;
		const edited = c.method === 'editMessageText' ? ' (edited)' : '';
		say(`  bot${edited}: ${String(c.payload.text).split('\n').join('\n       ')}`);
	});
}

async function start() {
	const sb = await startSandbox({ port: 0 });
	const tg = await new FakeTelegram().start();
	const dir = mkdtempSync(join(tmpdir(), 'vtu-storefront-demo-'));
	const secret = `sk_test_${crypto.randomBytes(12).toString('hex')}`;
	const pay = new PaymentSandbox({
		paystackSecret: secret,
		monnifyApiKey: 'unused',
		monnifySecret: 'unused',
		adminKey: crypto.randomBytes(12).toString('hex'),
		webhookUrls: { paystack: [], monnify: [] },
	});
	const payBase = await pay.start();
	const client = new VtuClient({ baseUrl: sb.baseUrl, token: sb.demo.token, reconcile: { maxProcessingMs: 0 } });
	const logger = createLogger({ level: 'warn', secrets: [secret, sb.demo.token, TOKEN] });
	const databaseUrl = process.env.DATABASE_URL;
	const opened = await openStoreDb(databaseUrl ? { databaseUrl } : { sqlitePath: join(dir, 'store.sqlite') });
	const owner = makeUser(1, 'Owner');
	const side = new StoreSide({
		opened,
		client,
		provider: paystack({ secretKey: secret, baseUrl: `${payBase}/paystack` }),
		pricing: { markupPercent: '5' },
		lowFloatKobo: 500_000,
		ownerIds: [owner.id],
		logger,
	});
	await side.init();
	const app = createBot(
		{ telegramToken: TOKEN, adminIds: [owner.id], maxProcessingMs: 0 },
		{
			client,
			db: openDatabase(join(dir, 'bot.sqlite')),
			logger,
			botConfig: { client: { apiRoot: tg.apiRoot } },
			storefront: side,
		},
	);
	await app.init();
	const hooks = await startPaymentWebhooks(side, 0, '127.0.0.1');
	pay.opts.webhookUrls.paystack.push(`http://127.0.0.1:${hooks.port}/webhooks/paystack`);
	const close = async () => {
		await hooks.close();
		await app.close();
		app.db.close();
		await side.close();
		await pay.stop();
		await tg.close();
		await sb.close();
		rmSync(dir, { recursive: true, force: true });
	};
	return { sb, tg, pay, side, app, close, admin: new SandboxAdmin(sb.baseUrl, sb.adminKey), db: databaseUrl };
}

type Demo = Awaited<ReturnType<typeof start>>;

async function journey(d: Demo, app: VtuBot, ada: FakeUser): Promise<void> {
	const send = (u: unknown) => app.bot.handleUpdate(u as never);
	say('\nAda opens the shop:\n  ada: /start');
	await send(d.tg.textUpdate(ada, '/start'));
	const account = /Your account: (\d+)/.exec(d.tg.textsTo(ada.id).join('\n'))![1];
	say(`\nAda transfers ₦5,000.00 to ${account}; the provider delivers its webhook 3 times, and once forged:`);
	const sent = await d.pay.transfer({ provider: 'paystack', accountNumber: account, amount: 500_000, deliveries: 3 });
	say(`  (webhook answers: ${sent.deliveries.map((x: { outcome?: string }) => x.outcome).join(', ')})`);
	const forged = await d.pay.deliver(sent.reference, { badSignature: true });
	say(`  (forged delivery: HTTP ${forged.deliveries.map((x: { status: number }) => x.status).join(', ')})`);
	say('\n  ada: /data → MTN → 1GB SME → 0803 123 4567 → Confirm');
	await send(d.tg.textUpdate(ada, '/data'));
	await send(d.tg.buttonUpdate(ada, 'MTN'));
	await send(d.tg.buttonUpdate(ada, /^1GB SME /));
	await send(d.tg.textUpdate(ada, '0803 123 4567'));
	await send(d.tg.buttonUpdate(ada, /^pay:y$/));
	const order = await d.side.books.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow();
	say('\nHours later the vendor reverses that order (it turns "failed"); the bot follows its orders:');
	await d.admin.setStatus('data', order.vendor_id!, 'failed');
	await app.storeFollower!.tick();
	await app.storeFollower!.tick(); // a second look changes nothing: refunded once
	say('\n  ada: /balance');
	await send(d.tg.textUpdate(ada, '/balance'));
}

async function main(): Promise<void> {
	const d = await start();
	say(
		`Storefront demo: vendor sandbox ${d.sb.baseUrl}, payment sandbox ${d.pay.url}, ` +
			`ledger on ${d.db ? 'Postgres' : 'SQLite'}.`,
	);
	say('Seller markup 5%. No real money anywhere.');
	const ada = makeUser(undefined, 'Ada');
	showChat(d.tg, ada);
	try {
		await journey(d, d.app, ada);
		const r = await audit(d.side.books.db);
		say('\nThe books:');
		say(
			`  wallets ${money(r.wallets)} = paid in ${money(r.paidIn)} − spent ${money(r.spent)} + ` +
				`refunded ${money(r.refunded)}`,
		);
		say(`  ${r.problems.length ? `PROBLEMS: ${r.problems.join('; ')}` : 'audit: no problems, books balance'}`);
		if (r.problems.length) process.exitCode = 1;
	} finally {
		await d.close();
	}
}

main().catch((e) => {
	process.stderr.write(`storefront demo failed: ${e instanceof Error ? e.message : String(e)}\n`);
	process.exit(1);
});
