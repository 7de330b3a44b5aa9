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

interface Button { text: string; data: string; messageId: number }

async function main(): Promise<void> {
  const sb = await startSandbox({ port: 0 });
  const tg = await new FakeTelegram().start();
  Object.assign(tg.botInfo, { first_name: 'VTU Bot (local)', username: 'vtu_local_bot' });
  const dir = mkdtempSync(join(tmpdir(), 'vtu-bot-try-'));

  // The bot's own variables come from here only: a REDIS_URL or webhook setting in the shell must not leak in.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BOT_|TELEGRAM_|VTU_|REDIS_|WEBHOOK_)/.test(k)));
  const bot = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'main.ts')], {
    env: {
      ...inherited,
      TELEGRAM_BOT_TOKEN: LOCAL_BOT_TOKEN,
      TELEGRAM_API_ROOT: tg.apiRoot,
      VTU_BASE_URL: sb.baseUrl,
      VTU_API_TOKEN: sb.demo.token,
      BOT_ADMIN_IDS: String(YOU.id),
      BOT_DB_PATH: join(dir, 'bot.sqlite'),
      BOT_MODE: 'polling',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  // The bot logs JSON lines; show its start-up line and its warnings, not the routine ones.
  let botLog = '';
  const onLog = (chunk: Buffer) => {
    botLog += chunk;
    for (const line of String(chunk).split('\n')) {
      try {
        const rec = JSON.parse(line) as { level?: string; msg?: string };
        if (rec.msg?.startsWith('ready:') || rec.level === 'warn' || rec.level === 'error') say(`  [bot log] ${rec.msg}`);
      } catch {
        /* not a log line */
      }
    }
  };
  bot.stdout.on('data', onLog);
  bot.stderr.on('data', onLog);
  const botExited = new Promise<number | null>((resolve) => bot.on('exit', resolve));

  let closing: Promise<void> | undefined;
  const shutdown = (code: number) =>
    (closing ??= (async () => {
      if (bot.exitCode === null) bot.kill('SIGTERM');
      await botExited;
      await tg.close();
      await sb.close();
      rmSync(dir, { recursive: true, force: true });
      say('Bye.');
      process.exit(code);
    })());

  say(`Sandbox (merchant API, ₦1,000,000.00 demo wallet): ${sb.baseUrl}`);
  say(`Local Bot API: ${tg.apiRoot}. Starting the bot…`);
  const ready = tg.waitFor(() => tg.callsOf('setMyCommands').length > 0, 120_000, 'the bot to start');
  const early = botExited.then((code) => {
    throw new Error(`the bot exited (code ${code}) before it was ready:\n${botLog}`);
  });
  await Promise.race([ready, early]);
  void botExited.then((code) => {
    if (!closing) {
      say(`The bot stopped (code ${code}).`);
      void shutdown(1);
    }
  });

  // The newest keyboard shown: its buttons are numbered 1..n.
  let keyboard: Button[] = [];
  let keyboardMessage = 0;
  const show = (call: RecordedCall) => {
    const p = call.payload;
    if (Number(p.chat_id) !== YOU.id && call.method !== 'answerCallbackQuery') return;
    const markup = typeof p.reply_markup === 'string' ? JSON.parse(p.reply_markup) : p.reply_markup;
    const rows: { text: string; callback_data?: string; url?: string }[][] = markup?.inline_keyboard ?? [];
    const messageId = Number(call.result?.message_id ?? p.message_id);
    if (call.method === 'sendMessage' || call.method === 'editMessageText') {
      say('');
      say(`bot${call.method === 'editMessageText' ? ' (edited)' : ''}: ${String(p.text).split('\n').join('\n     ')}`);
    } else if (call.method === 'answerCallbackQuery') {
      if (p.text) say(`bot (notice): ${p.text}`);
      return;
    } else if (call.method === 'sendDocument' || call.method === 'sendPhoto') {
      say(`bot sent a file${p.caption ? `: ${p.caption}` : ''}`);
      return;
    } else if (call.method === 'deleteMessage') {
      if (messageId === keyboardMessage) keyboard = [];
      return;
    } else if (call.method !== 'editMessageReplyMarkup') return;
    if (rows.length) {
      keyboard = [];
      keyboardMessage = messageId;
      for (const row of rows) {
        const labels = row.map((b) => {
          if (!b.callback_data) return `(${b.text}: ${b.url ?? 'link'})`;
          keyboard.push({ text: b.text, data: b.callback_data, messageId });
          return `[${keyboard.length}] ${b.text}`;
        });
        say(`     ${labels.join('   ')}`);
      }
    } else if (messageId === keyboardMessage) keyboard = [];
    rl.prompt();
  };

  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, prompt: 'you> ' });
  tg.onCall(show);
  say('');
  say('You are chatting with the bot as "You" (its admin). Try /start, /balance, /data.');
  say('Buttons are numbered: type a number to tap one. /quit (or Ctrl-D) stops.');
  rl.prompt();
  rl.on('line', (input) => {
    const text = input.trim();
    if (text === '/quit') return void shutdown(0);
    const n = /^\d+$/.test(text) ? Number(text) : 0;
    if (n >= 1 && n <= keyboard.length) {
      const b = keyboard[n - 1];
      say(`(you tapped "${b.text}")`);
      tg.enqueue(tg.callbackUpdate(YOU, b.messageId, b.data));
    } else if (text) tg.sendText(YOU, text);
    else rl.prompt();
  });
  // End of input (Ctrl-D, or a piped script): let the bot take what was typed, then stop it; on
  // SIGTERM it finishes the updates it holds.
  rl.on('close', () => {
    void (async () => {
      while (tg.pendingUpdates > 0 && bot.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      await shutdown(0);
    })();
  });
}

main().catch((e) => {
  process.stderr.write(`bot:try failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
