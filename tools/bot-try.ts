/**
 * `npm run bot:try`: chat with the bot in this terminal, no Telegram account or token needed.
 *
 * Starts the merchant-API sandbox and the local Bot API (local-bot-api.ts) in this process, runs the
 * real bot (`bot/main.ts`, long polling) as a child against both, and turns the terminal into your
 * chat: what you type is your message; the bot's inline keyboards are shown as numbered buttons,
 * and typing a button's number taps it. `/quit` (or Ctrl-D) stops everything. Nothing is kept.
 *
 * `npm run bot:try -- --storefront` runs the storefront mode instead (VTU_BOT_MODE=storefront): you are a
 * customer with your own wallet, funded through the local payment sandbox (store/sandbox/payments.ts, a
 * Paystack stand-in): `/pay 5000` simulates a bank transfer of ₦5,000 into your account number (`/pay 5000 x3`
 * delivers its webhook three times: you are told once, credited once). No real money anywhere.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import readline from 'node:readline';
import { createServer } from 'node:net';
import crypto from 'node:crypto';
import { startSandbox } from '../sandbox/server';
import { PaymentSandbox } from '../store/sandbox/payments';
import { formatNaira, parseNaira } from '../client/money';
import { FakeTelegram, type FakeUser, type RecordedCall } from './local-bot-api';

/** Any well-formed token: the local Bot API accepts it, and no real bot is behind it. */
const LOCAL_BOT_TOKEN = '1000001:local-try-token-not-a-real-bot-000000';
const YOU: FakeUser = { id: 1001, first_name: 'You', username: 'you' };

interface Button {
	text: string;
	data: string;
	messageId: number;
}
type Say = (line: string) => void;

const say: Say = (line) => process.stdout.write(`${line}\n`);

/** A free loopback port (for the storefront's payment webhooks, which the payment sandbox must know first). */
async function freePort(): Promise<number> {
	const s = createServer();
	await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
	const port = (s.address() as { port: number }).port;
	await new Promise<void>((r) => s.close(() => r()));
	return port;
}

/** Storefront mode: the payment sandbox, and the bot's variables pointing at it. */
async function startPayments(): Promise<{ pay: PaymentSandbox; env: Record<string, string> }> {
	const secret = `sk_test_${crypto.randomBytes(12).toString('hex')}`;
	const port = await freePort();
	const pay = new PaymentSandbox({
		paystackSecret: secret,
		monnifyApiKey: 'unused',
		monnifySecret: 'unused',
		adminKey: crypto.randomBytes(12).toString('hex'),
		webhookUrls: { paystack: [`http://127.0.0.1:${port}/webhooks/paystack`], monnify: [] },
	});
	const base = await pay.start();
	const env = {
		VTU_BOT_MODE: 'storefront',
		STORE_PAYMENT_PROVIDER: 'paystack',
		PAYSTACK_SECRET_KEY: secret,
		PAYSTACK_BASE_URL: `${base}/paystack`,
		STORE_WEBHOOK_PORT: String(port),
		STORE_MARKUP_PERCENT: '5',
		BOT_HOST: '127.0.0.1',
	};
	return { pay, env };
}

/** The real bot (bot/main.ts) as a child process, pointed at the sandbox and the local Bot API. */
function startBot(
	sb: { baseUrl: string; demo: { token: string } },
	apiRoot: string,
	dbPath: string,
	extra: Record<string, string> = {},
) {
	// The bot's own variables come from here only: a REDIS_URL or webhook setting in the shell must not leak in.
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(
			([k]) => !/^(BOT_|TELEGRAM_|VTU_|REDIS_|WEBHOOK_|STORE_|PAYSTACK_|MONNIFY_|DATABASE_URL)/.test(k),
		),
	);
	const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '..', 'bot', 'main.ts')], {
		env: {
			...inherited,
			TELEGRAM_BOT_TOKEN: LOCAL_BOT_TOKEN,
			TELEGRAM_API_ROOT: apiRoot,
			VTU_BASE_URL: sb.baseUrl,
			VTU_API_TOKEN: sb.demo.token,
			BOT_ADMIN_IDS: String(YOU.id),
			BOT_DB_PATH: dbPath,
			BOT_MODE: 'polling',
			...extra,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	// The bot logs JSON lines; show its start-up line and its warnings, not the routine ones.
	let log = '';
	const onLog = (chunk: Buffer) => {
		log += chunk;
		for (const line of String(chunk).split('\n')) {
			try {
				const rec = JSON.parse(line) as { level?: string; msg?: string };
				if (rec.msg?.startsWith('ready:') || rec.level === 'warn' || rec.level === 'error')
					say(`  [bot log] ${rec.msg}`);
			} catch {
				/* not a log line */
			}
		}
	};
	child.stdout!.on('data', onLog);
	child.stderr!.on('data', onLog);
	const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
	return { child, exited, log: () => log };
}

/**
 * The terminal side of the chat: prints what the bot sends to YOU, and numbers the buttons of the
 * newest keyboard so that typing a number taps one.
 */
class ChatView {
	private keyboard: Button[] = [];
	private keyboardMessage = 0;

	constructor(private readonly prompt: () => void) {}

	/** The button typed as `n` (1-based), if the newest keyboard has it. */
	button(n: number): Button | undefined {
		return n >= 1 && n <= this.keyboard.length ? this.keyboard[n - 1] : undefined;
	}

	show(call: RecordedCall): void {
		const p = call.payload;
		if (Number(p.chat_id) !== YOU.id && call.method !== 'answerCallbackQuery') return;
		const messageId = Number(call.result?.message_id ?? p.message_id);
		switch (call.method) {
			case 'sendMessage':
			case 'editMessageText':
				say('');
				say(
					`bot${call.method === 'editMessageText' ? ' (edited)' : ''}: ${String(p.text).split('\n').join('\n     ')}`,
				);
				break;
			case 'editMessageReplyMarkup':
				break;
			case 'answerCallbackQuery':
				if (p.text) say(`bot (notice): ${p.text}`);
				return;
			case 'sendDocument':
			case 'sendPhoto':
				say(`bot sent a file${p.caption ? `: ${p.caption}` : ''}`);
				return;
			case 'deleteMessage':
				if (messageId === this.keyboardMessage) this.keyboard = [];
				return;
			default:
				return;
		}
		this.showKeyboard(p.reply_markup, messageId);
		this.prompt();
	}

	private showKeyboard(replyMarkup: unknown, messageId: number): void {
		const markup = (typeof replyMarkup === 'string' ? JSON.parse(replyMarkup) : replyMarkup) as
			| { inline_keyboard?: { text: string; callback_data?: string; url?: string }[][] }
			| undefined;
		const rows = markup?.inline_keyboard ?? [];
		if (!rows.length) {
			if (messageId === this.keyboardMessage) this.keyboard = [];
			return;
		}
		this.keyboard = [];
		this.keyboardMessage = messageId;
		for (const row of rows) {
			const labels = row.map((b) => {
				if (!b.callback_data) return `(${b.text}: ${b.url ?? 'link'})`;
				this.keyboard.push({ text: b.text, data: b.callback_data, messageId });
				return `[${this.keyboard.length}] ${b.text}`;
			});
			say(`     ${labels.join('   ')}`);
		}
	}
}

/**
 * `/pay <naira> [xN]` (storefront mode): a bank transfer into your account number through the payment
 * sandbox, its signed webhook delivered N times (replays) to the bot.
 */
async function simulatePayment(pay: PaymentSandbox, tg: FakeTelegram, line: string): Promise<void> {
	const m = /^\/pay\s+(\S+)(?:\s+x(\d{1,2}))?$/i.exec(line);
	let amount: number | null = null;
	try {
		amount = m ? parseNaira(m[1], 'amount') : null;
	} catch {
		amount = null;
	}
	if (!m || !amount) return say('(type /pay and an amount in naira, e.g. /pay 5000, or /pay 5000 x3 to replay it)');
	const account = tg
		.textsTo(YOU.id)
		.map((s) => /Your account: (\d+)/.exec(s)?.[1])
		.filter(Boolean)
		.pop();
	if (!account) return say('(type /start first: it opens your account number)');
	const deliveries = Number(m[2] ?? 1);
	const r = await pay.transfer({ provider: 'paystack', accountNumber: account, amount, deliveries });
	const outcomes = r.deliveries.map((d: { outcome?: string; status: number }) => d.outcome ?? d.status).join(', ');
	say(
		`(payment sandbox: ${formatNaira(amount, { symbol: true, grouping: true })} sent to ${account}; ` +
			`webhook delivered ${deliveries}×: ${outcomes})`,
	);
}

async function main(): Promise<void> {
	const storefront = process.argv.includes('--storefront');
	const sb = await startSandbox({ port: 0 });
	const payments = storefront ? await startPayments() : undefined;
	const tg = await new FakeTelegram().start();
	Object.assign(tg.botInfo, { first_name: 'VTU Bot (local)', username: 'vtu_local_bot' });
	const dir = mkdtempSync(join(tmpdir(), 'vtu-bot-try-'));
	const bot = startBot(sb, tg.apiRoot, join(dir, 'bot.sqlite'), payments?.env);

	let closing: Promise<void> | undefined;
	const shutdown = (code: number) =>
		(closing ??= (async () => {
			if (bot.child.exitCode === null) bot.child.kill('SIGTERM');
			await bot.exited;
			await tg.close();
			await sb.close();
			await payments?.pay.stop();
			rmSync(dir, { recursive: true, force: true });
			say('Bye.');
			process.exit(code);
		})());

	say(`Sandbox (merchant API, ₦1,000,000.00 demo wallet): ${sb.baseUrl}`);
	say(`Local Bot API: ${tg.apiRoot}. Starting the bot…`);
	const ready = tg.waitFor(() => tg.callsOf('setMyCommands').length > 0, 120_000, 'the bot to start');
	const early = bot.exited.then((code) => {
		throw new Error(`the bot exited (code ${code}) before it was ready:\n${bot.log()}`);
	});
	await Promise.race([ready, early]);
	void bot.exited.then((code) => {
		if (!closing) {
			say(`The bot stopped (code ${code}).`);
			void shutdown(1);
		}
	});

	const rl = readline.createInterface({ input: process.stdin, output: process.stdout, prompt: 'you> ' });
	const view = new ChatView(() => rl.prompt());
	tg.onCall((call) => view.show(call));
	say('');
	if (payments) {
		say('Storefront mode: you are a customer (and the owner). /start opens your account number;');
		say('/pay 5000 simulates a bank transfer of ₦5,000 into it (/pay 5000 x3 replays its webhook). Then /data.');
	} else say('You are chatting with the bot as "You" (its admin). Try /start, /balance, /data.');
	say('Buttons are numbered: type a number to tap one. /quit (or Ctrl-D) stops.');
	rl.prompt();
	rl.on('line', (input) => {
		const text = input.trim();
		if (text === '/quit') return void shutdown(0);
		if (payments && /^\/pay\b/i.test(text))
			return void simulatePayment(payments.pay, tg, text).then(
				() => rl.prompt(),
				(e: Error) => say(`(payment sandbox: ${e.message})`),
			);
		const b = /^\d+$/.test(text) ? view.button(Number(text)) : undefined;
		if (b) {
			say(`(you tapped "${b.text}")`);
			tg.enqueue(tg.callbackUpdate(YOU, b.messageId, b.data));
		} else if (text) tg.sendText(YOU, text);
		else rl.prompt();
	});
	// End of input (Ctrl-D, or a piped script): let the bot take what was typed, then stop it; on
	// SIGTERM it finishes the updates it holds.
	rl.on('close', () => {
		void (async () => {
			while (tg.pendingUpdates > 0 && bot.child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
			await shutdown(0);
		})();
	});
}

main().catch((e) => {
	process.stderr.write(`bot:try failed: ${e instanceof Error ? e.message : String(e)}\n`);
	process.exit(1);
});
