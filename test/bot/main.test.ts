/** `npm run bot` as a real process: config errors, long polling against the fake Bot API, SIGTERM shutdown. */
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxAdmin } from '../../sandbox/admin-client';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { FakeTelegram, makeUser } from './fake-telegram';
import { BOT_TOKEN, runBot } from './harness';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
	await sb.close();
});

test('invalid configuration: clear message naming the variables, exit code 2, no secret echoed', async () => {
	const p = runBot({ TELEGRAM_BOT_TOKEN: 'garbage-secret-value', VTU_API_TOKEN: sb.demo.token, BOT_MODE: 'webhook' });
	expect(await p.exited).toBe(2);
	const out = p.output();
	expect(out).toMatch(/Invalid bot configuration/);
	for (const v of ['TELEGRAM_BOT_TOKEN', 'VTU_BASE_URL', 'WEBHOOK_URL', 'WEBHOOK_SECRET', 'BOT_ADMIN_IDS'])
		expect(out).toContain(v);
	expect(out).not.toContain('garbage-secret-value');
	expect(out).not.toContain(sb.demo.token);
}, 30_000);

test('long polling process: registers commands, answers, stops cleanly on SIGTERM; tokens never printed', async () => {
	await new SandboxAdmin(sb.baseUrl, sb.adminKey).reset();
	const tg = await new FakeTelegram().start();
	const dir = mkdtempSync(join(tmpdir(), 'vtu-main-'));
	const u = makeUser(undefined, 'Main');
	const p = runBot({
		TELEGRAM_BOT_TOKEN: BOT_TOKEN,
		VTU_BASE_URL: sb.baseUrl,
		VTU_API_TOKEN: sb.demo.token,
		BOT_ALLOWED_IDS: String(u.id),
		BOT_DB_PATH: join(dir, 'bot.sqlite'),
		TELEGRAM_API_ROOT: tg.apiRoot,
		BOT_LOG_LEVEL: 'debug',
	});
	try {
		await tg.waitFor(() => tg.callsOf('setMyCommands').length > 0, 20_000, 'setMyCommands');
		tg.sendText(u, '/balance');
		await tg.waitForText(u.id, /Wallet balance: ₦1,000,000\.00/, 20_000);
		p.child.kill('SIGTERM');
		expect(await p.exited).toBe(0);
		expect(tg.pendingUpdates).toBe(0);
		const out = p.output();
		expect(out).toMatch(/ready: @vtu_test_bot takes updates by long polling from http:\/\/127\.0\.0\.1:\d+/);
		expect(out).toMatch(/shutting down/);
		expect(out).not.toContain(BOT_TOKEN.split(':')[1]);
		expect(out).not.toContain(sb.demo.token);
	} finally {
		if (p.child.exitCode === null) p.child.kill('SIGKILL');
		await tg.close();
		rmSync(dir, { recursive: true, force: true });
	}
}, 60_000);

test('an unreachable Bot API is reported at once: what was tried, where, that it keeps trying; no token', async () => {
	// A loopback port that was free a moment ago: connections are refused.
	const port = await new Promise<number>((resolve) => {
		const s = net.createServer().listen(0, '127.0.0.1', () => {
			const { port } = s.address() as net.AddressInfo;
			s.close(() => resolve(port));
		});
	});
	const dir = mkdtempSync(join(tmpdir(), 'vtu-main-'));
	const p = runBot({
		TELEGRAM_BOT_TOKEN: BOT_TOKEN,
		VTU_BASE_URL: sb.baseUrl,
		VTU_API_TOKEN: sb.demo.token,
		BOT_ALLOWED_IDS: '5001',
		BOT_DB_PATH: join(dir, 'bot.sqlite'),
		TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`,
	});
	try {
		const said = new RegExp(
			String.raw`cannot reach the Telegram Bot API at http://127\.0\.0\.1:(\d+) \(getMe: ECONNREFUSED\); ` +
				'retrying in 1 s, and until it answers',
		);
		await new Promise<void>((resolve, reject) => {
			const check = () => said.test(p.output()) && resolve();
			p.child.stdout.on('data', check);
			p.child.stderr.on('data', check);
			p.child.on('exit', () => reject(new Error(`bot exited:\n${p.output()}`)));
		});
		expect(said.exec(p.output())![1]).toBe(String(port));
		expect(p.output()).toContain(`connecting to the Telegram Bot API at http://127.0.0.1:${port}`);
		expect(p.output()).not.toContain(BOT_TOKEN.split(':')[1]);
		expect(p.output()).not.toContain(sb.demo.token);
	} finally {
		p.child.kill('SIGKILL');
		await p.exited;
		rmSync(dir, { recursive: true, force: true });
	}
}, 60_000);
