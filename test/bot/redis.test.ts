/**
 * REDIS_URL for real: a redis-server child process on a free loopback port, two bot instances in
 * webhook mode (each its own HTTP server, its own SQLite connection to the shared journal file),
 * wired exactly as main.ts does it (bot/redis.ts connectRedis).
 *
 * Not part of `npm test` (which needs only Node and npm): run it with `npm run test:redis`.
 * redis-server must be on PATH (.ci/run installs it). This suite FAILS when it is missing; it does
 * not skip, so CI cannot pass without ever having run it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import Redis from 'ioredis';
import { connectRedis, type RedisShared } from '../../bot/redis';
import { startWebhookServer, type WebhookServer } from '../../bot/server';
import type { VtuBot } from '../../bot/bot';
import { BOT_TOKEN, useBotEnv } from './harness';
import { lines, text, what } from './texts';

const SECRET = 'webhook_secret_redis_0123456789';

let server: ChildProcess | undefined;
let redisUrl = '';
let serverLog = '';

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const s = net.createServer();
		s.once('error', reject);
		s.listen(0, '127.0.0.1', () => {
			const { port } = s.address() as net.AddressInfo;
			s.close(() => resolve(port));
		});
	});
}

// Checked before any hook is registered: a missing server is one clear failure, not a cascade of teardown errors.
const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
if (found.status !== 0 || !found.stdout.trim()) {
	throw new Error(
		'redis-server is not on PATH. `npm run test:redis` needs a real Redis: install it (Debian/Ubuntu: apt-get ' +
			'install -y redis-server; .ci/run does this). Refusing to skip.',
	);
}
const env = useBotEnv();

beforeAll(async () => {
	const port = await freePort();
	server = spawn(
		found.stdout.trim(),
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
		{
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	server.stdout!.on('data', (d) => (serverLog += d));
	server.stderr!.on('data', (d) => (serverLog += d));
	redisUrl = `redis://127.0.0.1:${port}/0`;
	const deadline = Date.now() + 10_000;
	for (;;) {
		if (server.exitCode !== null) throw new Error(`redis-server exited with ${server.exitCode}:\n${serverLog}`);
		const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
		probe.on('error', () => undefined);
		try {
			await probe.connect();
			if ((await probe.ping()) === 'PONG') {
				probe.disconnect();
				break;
			}
		} catch {
			probe.disconnect();
		}
		if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${redisUrl}:\n${serverLog}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}, 20_000);

afterAll(async () => {
	if (server && server.exitCode === null) {
		const exited = new Promise((r) => server!.once('exit', r));
		server.kill('SIGTERM');
		await exited;
	}
});

/** Per test: the shared Redis state handles and webhook servers to close, and a clean database. */
const opened: RedisShared[] = [];
const servers: WebhookServer[] = [];
let admin: Redis;
beforeEach(async () => {
	admin = new Redis(redisUrl);
	await admin.flushdb();
});
afterEach(async () => {
	for (const s of servers.splice(0)) await s.close();
	for (const r of opened.splice(0)) await r.close();
	admin.disconnect();
});

interface Instance {
	app: VtuBot;
	shared: RedisShared;
	post(update: unknown): Promise<number>;
}

async function instance(cfg: { rateLimit?: number; rateWindowMs?: number } = {}): Promise<Instance> {
	const shared = await connectRedis(redisUrl, { botId: BOT_TOKEN, rateWindowMs: cfg.rateWindowMs ?? 10_000 });
	opened.push(shared);
	const app = await env.makeBot(cfg, env.dbPath, env.client, shared.deps);
	const srv = await startWebhookServer(app.bot, { path: '/hook', secretToken: SECRET, port: 0, host: '127.0.0.1' });
	servers.push(srv);
	const url = `http://127.0.0.1:${srv.port}/hook`;
	return {
		app,
		shared,
		post: async (update) => {
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
				body: JSON.stringify(update),
			});
			await res.arrayBuffer();
			return res.status;
		},
	};
}

test('a flow started on instance A continues on instance B; a confirm delivered to both buys once', async () => {
	const a = await instance();
	const b = await instance();
	const u = env.alice;
	expect(await a.post(env.tg.textUpdate(u, '/data'))).toBe(200);
	expect(await b.post(env.tg.buttonUpdate(u, 'MTN'))).toBe(200);
	expect(env.tg.lastText(u.id)).toBe('MTN data: choose a plan.');
	expect(await a.post(env.tg.buttonUpdate(u, /^1GB SME /))).toBe(200);

	// While it waits for the phone number, the conversation lives in Redis (namespaced per bot), not in the
	// SQLite kv table.
	const ns = `vtubot:${BOT_TOKEN.split(':')[0]}:`;
	expect(a.shared.namespace).toBe(ns);
	expect(await admin.keys(`${ns}conv:*`)).toEqual([`${ns}conv:${u.id}`]);
	expect(await admin.ttl(`${ns}conv:${u.id}`)).toBeGreaterThan(3600);
	expect(a.app.db.prepare(`SELECT COUNT(*) AS n FROM kv WHERE key LIKE 'conv:%'`).get()).toEqual({ n: 0 });
	expect(await b.post(env.tg.textUpdate(u, '08031234567'))).toBe(200);
	const mtn = text('phone-target', { phone: '0803 123 4567', network: 'MTN' });
	const question = lines(
		['confirm-question-for', { price: '₦250.00', target: mtn }],
		['confirm-gets', { gets: what('MTN data 1GB SME (30 days)', mtn) }],
		['confirm-pay', { price: '₦250.00' }],
	);
	expect(env.tg.lastText(u.id)).toMatch(new RegExp(`${question.source}\n`));
	// The flow's conversation ended at the confirm message (the journal holds the order; the buttons carry its id).
	expect(await admin.keys(`${ns}conv:*`)).toEqual([]);

	// Telegram re-delivers the confirm (webhook retry) and the two copies reach different instances at once.
	const confirm = env.tg.buttonUpdate(u, /^confirm:/);
	expect(await Promise.all([a.post(confirm), b.post(confirm)])).toEqual([200, 200]);
	await env.tg.waitForText(u.id, /^✅ Delivered/);
	expect(await env.debits()).toBe(1);
	expect(env.tg.textsTo(u.id).filter((t) => t.startsWith('✅ Delivered'))).toHaveLength(1);
	expect(env.logs.filter((l) => l.includes('duplicate update ignored'))).toHaveLength(1);
	expect(await admin.exists(`${ns}upd:${confirm.update_id}`)).toBe(1);
	// Dedupe went through Redis: the journal's own table was not used.
	expect(a.app.db.prepare(`SELECT COUNT(*) AS n FROM seen_updates`).get()).toEqual({ n: 0 });
	expect(a.app.db.prepare(`SELECT state, COUNT(*) AS n FROM orders GROUP BY state`).all()).toEqual([
		{ state: 'successful', n: 1 },
	]);
	// The finished conversation is gone from Redis.
	expect(await admin.keys(`${ns}conv:*`)).toEqual([]);
});

test('instance A stops mid-flow (restart); B finishes it; a duplicate ordinary command is answered once', async () => {
	const a = await instance();
	const b = await instance();
	const u = env.bob;
	await a.post(env.tg.textUpdate(u, '/airtime'));
	await a.post(env.tg.buttonUpdate(u, 'GLO'));
	// A goes away (deploy): its HTTP server and Redis connection close.
	await servers.shift()!.close();
	await a.shared.close();
	await b.post(env.tg.textUpdate(u, '200'));
	await b.post(env.tg.textUpdate(u, '0805 123 4567'));
	expect(env.tg.lastText(u.id)).toMatch(
		lines(
			[
				'confirm-question-for',
				{ price: /₦[\d,.]+/, target: text('phone-target', { phone: '0805 123 4567', network: 'GLO' }) },
			],
			['confirm-gets', { gets: text('airtime-gets', { amount: '₦200.00', network: 'GLO', phone: '0805 123 4567' }) }],
			['confirm-pay', { price: /₦[\d,.]+/ }],
		),
	);
	await b.post(env.tg.buttonUpdate(u, /^confirm:/));
	expect(env.tg.lastText(u.id)).toMatch(/^✅ Delivered: GLO airtime ₦200\.00/);
	expect(await env.debits()).toBe(1);

	const c = await instance();
	const balance = env.tg.textUpdate(u, '/balance');
	await Promise.all([b.post(balance), c.post(balance)]);
	expect(env.tg.textsTo(u.id).filter((t) => t.startsWith('💰 Wallet balance'))).toHaveLength(1);
});

test('the rate limit is counted across instances in Redis, and every counter expires', async () => {
	const a = await instance({ rateLimit: 3, rateWindowMs: 60_000 });
	const b = await instance({ rateLimit: 3, rateWindowMs: 60_000 });
	const u = env.alice;
	for (const inst of [a, b, a]) await inst.post(env.tg.textUpdate(u, '/balance'));
	expect(env.tg.textsTo(u.id).filter((t) => t.startsWith('💰'))).toHaveLength(3);
	await b.post(env.tg.textUpdate(u, '/balance'));
	expect(env.tg.textsTo(u.id).filter((t) => t.startsWith('💰'))).toHaveLength(3);
	expect(env.logs.filter((l) => l.includes('rate limited'))).toHaveLength(1);
	const keys = await admin.keys(`${a.shared.namespace}rl:*`);
	expect(keys).toHaveLength(1);
	expect(await admin.get(keys[0])).toBe('4');
	const ttl = await admin.pttl(keys[0]);
	expect(ttl).toBeGreaterThan(50_000);
	expect(ttl).toBeLessThanOrEqual(60_000);
});

test('Redis unreachable at start-up: connectRedis fails fast with a clear message', async () => {
	const port = await freePort();
	await expect(connectRedis(`redis://127.0.0.1:${port}/0`, { botId: BOT_TOKEN, rateWindowMs: 1000 })).rejects.toThrow(
		/Redis \(REDIS_URL\) is not reachable/,
	);
});

test('Redis going away mid-run: dedupe falls back to the shared journal; a duplicate still handled once', async () => {
	const a = await instance();
	const u = env.alice;
	await a.post(env.tg.textUpdate(u, '/balance'));
	// Break only the dedupe (conversations need Redis too, so a real outage would also stop flows).
	a.shared.deps.updateDedupe.firstSeen = async () => {
		throw new Error('Connection is closed.');
	};
	const upd = env.tg.textUpdate(u, '/history');
	await a.post(upd);
	await a.post(upd);
	expect(env.tg.textsTo(u.id).filter((t) => t.startsWith('No orders yet'))).toHaveLength(1);
	expect(env.logs.some((l) => l.includes('shared update dedupe failed, using the journal'))).toBe(true);
});
