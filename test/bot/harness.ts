/**
 * Bot test harness: the REAL sandbox over HTTP, the REAL client, the bot's SQLite journal in a
 * temp file, and the fake Bot API on loopback (grammY `client.apiRoot`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VtuClient } from '../../client';
import { processAccounts } from '../../client/purchase';
import { SandboxAdmin } from '../../sandbox/admin-client';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { createBot, type BotDeps, type CreateBotConfig, type VtuBot } from '../../bot/bot';
import { openDatabase } from '../../bot/db';
import { createLogger } from '../../bot/logger';
import { FakeTelegram, makeUser, type FakeUser } from './fake-telegram';

export const BOT_TOKEN = '7000001:AAH-test_secret_token_value_0123456789';

export interface Env {
	sb: Sandbox;
	admin: SandboxAdmin;
	tg: FakeTelegram;
	dir: string;
	dbPath: string;
	logs: string[];
	client: VtuClient;
	/** Bots created by makeBot (closed after each test). */
	bots: VtuBot[];
	admin1: FakeUser;
	alice: FakeUser;
	bob: FakeUser;
	stranger: FakeUser;
	makeBot(
		cfg?: Partial<CreateBotConfig>,
		dbPath?: string,
		client?: VtuClient,
		deps?: Partial<BotDeps>,
	): Promise<VtuBot>;
	clientFor(token: string): VtuClient;
	/** Feed one update to a bot (webhook style) and wait until it is handled. */
	send(app: VtuBot, update: any): Promise<void>;
	demoLedger(): Promise<{ kind: string; amountKobo: number; ident: string | null }[]>;
	debits(): Promise<number>;
	/** Run `fn` after the test, before the bots are closed (in the order registered). */
	cleanup(fn: () => unknown): void;
}

/**
 * What a new process's client has: no memory of this process's purchases (claims, in-flight counts,
 * learned clock). Clients created after this call start empty; earlier ones keep their own memory.
 */
export function newProcessMemory(): void {
	processAccounts().clear();
}

export function useBotEnv(): Env {
	const env = { bots: [] as VtuBot[], logs: [] as string[] } as unknown as Env;
	const cleanups: (() => unknown)[] = [];
	env.cleanup = (fn) => void cleanups.push(fn);
	beforeAll(async () => {
		env.sb = await startSandbox({ port: 0 });
		env.admin = new SandboxAdmin(env.sb.baseUrl, env.sb.adminKey);
	});
	beforeEach(async () => {
		await env.admin.reset();
		processAccounts().clear(); // a reset sandbox numbers records from 1 again: forget this process's claims
		env.tg = await new FakeTelegram().start();
		env.tg.acceptTokens.add(BOT_TOKEN);
		env.dir = mkdtempSync(join(tmpdir(), 'vtu-bot-'));
		env.dbPath = join(env.dir, 'bot.sqlite');
		env.logs.length = 0;
		env.admin1 = makeUser(undefined, 'Admin');
		env.alice = makeUser(undefined, 'Alice');
		env.bob = makeUser(undefined, 'Bob');
		env.stranger = makeUser(undefined, 'Stranger');
		env.client = new VtuClient({
			baseUrl: env.sb.baseUrl,
			token: env.sb.demo.token,
			timeoutMs: 1500,
			catalogTtlMs: 60_000,
			// as bot/main.ts; bound: see makeBot
			reconcile: { waitMs: 1500, pollMs: 200, sharedAccount: false, maxProcessingMs: 0 },
		});
		env.clientFor = (token) =>
			new VtuClient({
				baseUrl: env.sb.baseUrl,
				token,
				timeoutMs: 1500,
				reconcile: { waitMs: 1500, pollMs: 200, sharedAccount: false, maxProcessingMs: 0 },
			});
		env.makeBot = async (cfg = {}, dbPath = env.dbPath, client = env.client, deps = {}) => {
			// No redaction here: the tests check the raw log lines never contain a secret.
			const rawLogger = createLogger({ level: 'debug', secrets: [], write: (l) => env.logs.push(l) });
			const app = createBot(
				{
					telegramToken: BOT_TOKEN,
					vtuToken: env.sb.demo.token,
					adminIds: [env.admin1.id],
					allowedIds: [env.alice.id, env.bob.id],
					maxPurchaseKobo: 500_000,
					dailyLimitKobo: 2_000_000,
					followIntervalMs: 60_000,
					rateLimit: 1000,
					// The sandbox creates a record before it answers: nothing can appear after the answer (slow-vendor
					// tests set their own).
					maxProcessingMs: 0,
					...cfg,
				},
				{
					client,
					db: openDatabase(dbPath),
					logger: rawLogger,
					botConfig: { client: { apiRoot: env.tg.apiRoot } },
					autoRetry: { maxRetryAttempts: 1, maxDelaySeconds: 1 },
					...deps,
				},
			);
			await app.init();
			env.bots.push(app);
			return app;
		};
		env.send = async (app, update) => {
			await app.bot.handleUpdate(update);
		};
		env.demoLedger = async () =>
			(await env.admin.ledger(env.sb.demo.username)).map((e) => ({
				kind: e.kind,
				amountKobo: e.amountKobo,
				ident: e.ident,
			}));
		env.debits = async () => (await env.demoLedger()).filter((e) => e.kind === 'debit').length;
	});
	afterEach(async () => {
		for (const fn of cleanups.splice(0)) await fn();
		// Every test: no token in any outgoing Bot API payload or log line.
		assertNoSecrets(env);
		for (const b of env.bots.splice(0)) {
			if (b.bot.isRunning()) await b.bot.stop();
			await b.close();
			b.db.close();
		}
		await env.tg.close();
		rmSync(env.dir, { recursive: true, force: true });
	});
	afterAll(async () => {
		await env.sb.close();
	});
	return env;
}

/** Every text the bot sent or edited, every answer and every log line: none may contain a secret. */
export function assertNoSecrets(env: Env): void {
	const secrets = [BOT_TOKEN, BOT_TOKEN.split(':')[1], env.sb.demo.token];
	const outgoing = env.tg.calls.map((c) => JSON.stringify(c.payload));
	// Plain text only: no parse mode, so user input (names, numbers, SMS text) cannot inject markup.
	for (const c of env.tg.calls) expect(c.payload.parse_mode).toBeUndefined();
	for (const s of secrets) {
		for (const o of outgoing) expect(o).not.toContain(s);
		for (const l of env.logs) expect(l).not.toContain(s);
	}
}

/** Walk /data up to the confirm prompt (or the repeat guard's question, for an identical recent order). */
export async function dataToConfirm(
	env: Pick<Env, 'tg' | 'send'>,
	app: VtuBot,
	u: FakeUser,
	opts: { network?: string; plan?: RegExp; phone?: string } = {},
): Promise<void> {
	await env.send(app, env.tg.textUpdate(u, '/data'));
	await env.send(app, env.tg.buttonUpdate(u, opts.network ?? 'MTN'));
	await env.send(app, env.tg.buttonUpdate(u, opts.plan ?? /^1GB SME /));
	await env.send(app, env.tg.textUpdate(u, opts.phone ?? '0803 123 4567'));
}

/** The document the bot sent last to a chat: its caption and content (grammY uploads it as "attach://<part>"). */
export function lastDocument(env: Pick<Env, 'tg'>, chatId: number): { content: string; caption: string } | undefined {
	const docs = env.tg.callsOf('sendDocument').filter((c) => Number(c.payload.chat_id) === chatId);
	const d = docs[docs.length - 1];
	if (!d) return undefined;
	const ref = String(d.payload.document);
	const content = ref.startsWith('attach://') ? d.payload[ref.slice('attach://'.length)] : ref;
	return { content: String(content), caption: String(d.payload.caption) };
}

/** The real bot (`bot/main.ts`) as its own process, with only the environment given (and PATH, HOME). */
export function runBot(env: Record<string, string>) {
	const child = spawn(process.execPath, ['--import', 'tsx', 'bot/main.ts'], {
		cwd: join(__dirname, '..', '..'),
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let out = '';
	child.stdout.on('data', (d) => (out += d));
	child.stderr.on('data', (d) => (out += d));
	const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
	return { child, exited, output: () => out };
}
