/**
 * `npm run bot:try`: chat with the bot in this terminal, no Telegram account or token needed.
 *
 * Starts the merchant-API sandbox and the local Bot API (local-bot-api.ts) in this process, runs the
 * real bot (`bot/main.ts`, long polling) as a child against both, and turns the terminal into your
 * chat: what you type is your message; the bot's inline keyboards are shown as numbered buttons,
 * and typing a button's number taps it. `/quit` (or Ctrl-D) stops everything. Nothing is kept.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import readline from 'node:readline';
import { startSandbox } from '../sandbox/server';
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

/** The real bot (bot/main.ts) as a child process, pointed at the sandbox and the local Bot API. */
function startBot(sb: { baseUrl: string; demo: { token: string } }, apiRoot: string, dbPath: string) {
	// The bot's own variables come from here only: a REDIS_URL or webhook setting in the shell must not leak in.
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !/^(BOT_|TELEGRAM_|VTU_|REDIS_|WEBHOOK_)/.test(k)),
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

async function main(): Promise<void> {
	const sb = await startSandbox({ port: 0 });
	const tg = await new FakeTelegram().start();
	Object.assign(tg.botInfo, { first_name: 'VTU Bot (local)', username: 'vtu_local_bot' });
	const dir = mkdtempSync(join(tmpdir(), 'vtu-bot-try-'));
	const bot = startBot(sb, tg.apiRoot, join(dir, 'bot.sqlite'));

	let closing: Promise<void> | undefined;
	const shutdown = (code: number) =>
		(closing ??= (async () => {
			if (bot.child.exitCode === null) bot.child.kill('SIGTERM');
			await bot.exited;
			await tg.close();
			await sb.close();
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
	say('You are chatting with the bot as "You" (its admin). Try /start, /balance, /data.');
	say('Buttons are numbered: type a number to tap one. /quit (or Ctrl-D) stops.');
	rl.prompt();
	rl.on('line', (input) => {
		const text = input.trim();
		if (text === '/quit') return void shutdown(0);
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
