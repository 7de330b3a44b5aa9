/**
 * The bot's start-up output never shows a secret, even when one is part of a configured URL: a bot
 * token inside TELEGRAM_API_ROOT (a proxy path) and a password in its `user:password@` part.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { BOT_TOKEN } from './harness';

const ROOT = join(__dirname, '..', '..');
const PASSWORD = 'pr0xyPassw0rd';

let sb: Sandbox;
let botApi: http.Server;
let port: number;
beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
	// a Bot API that knows no bot: every method answers 404, which start-up treats as a rejected token (fatal)
	botApi = http.createServer((_q, s) =>
		s
			.writeHead(404, { 'content-type': 'application/json' })
			.end('{"ok":false,"error_code":404,"description":"Not Found"}'),
	);
	await new Promise<void>((r) => botApi.listen(0, '127.0.0.1', r));
	port = (botApi.address() as AddressInfo).port;
});
afterAll(async () => {
	await sb.close();
	await new Promise((r) => botApi.close(r));
});

/** Run `bot/main.ts` until it exits (or `until` matches its output: then it is killed). */
async function runBot(apiRoot: string, until: RegExp): Promise<{ code: number | null; out: string }> {
	const dir = mkdtempSync(join(tmpdir(), 'vtu-secrets-'));
	const child = spawn(process.execPath, ['--import', 'tsx', 'bot/main.ts'], {
		cwd: ROOT,
		env: {
			PATH: process.env.PATH ?? '',
			HOME: process.env.HOME ?? '',
			TELEGRAM_BOT_TOKEN: BOT_TOKEN,
			VTU_BASE_URL: sb.baseUrl,
			VTU_API_TOKEN: sb.demo.token,
			BOT_ALLOWED_IDS: '5001',
			BOT_DB_PATH: join(dir, 'bot.sqlite'),
			TELEGRAM_API_ROOT: apiRoot,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let out = '';
	const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
	await new Promise<void>((resolve) => {
		const check = () => until.test(out) && resolve();
		child.stdout.on('data', (d) => ((out += d), check()));
		child.stderr.on('data', (d) => ((out += d), check()));
		void exited.then(() => resolve());
	});
	if (child.exitCode === null) child.kill('SIGKILL');
	const code = await exited;
	rmSync(dir, { recursive: true, force: true });
	return { code, out };
}

const secretHalf = BOT_TOKEN.split(':')[1];

test('a bot token inside TELEGRAM_API_ROOT is not printed by the fatal start-up message', async () => {
	const { code, out } = await runBot(`http://127.0.0.1:${port}/proxy/bot${BOT_TOKEN}`, /$^/);
	expect(code).toBe(1);
	expect(out).toMatch(
		/Fatal: The Bot API at http:\/\/127\.0\.0\.1:\d+\/proxy\/bot\[redacted\] rejected the bot token \(404/,
	);
	expect(out).not.toContain(secretHalf);
	expect(out).not.toContain(sb.demo.token);
}, 60_000);

test('a user:password@ part of TELEGRAM_API_ROOT is never printed', async () => {
	const { out } = await runBot(`http://proxyuser:${PASSWORD}@127.0.0.1:${port}/bot${BOT_TOKEN}`, /Fatal:|cannot reach/);
	expect(out).toMatch(/connecting to the Telegram Bot API at http:\/\/127\.0\.0\.1:\d+\/bot\[redacted\]/);
	expect(out).toMatch(/Fatal:|cannot reach/);
	expect(out).not.toContain(PASSWORD);
	expect(out).not.toContain(secretHalf);
	expect(out).not.toContain(sb.demo.token);
}, 60_000);
