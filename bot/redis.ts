/**
 * REDIS_URL: everything that several bot instances must share, in one Redis (ioredis):
 *
 *   - conversation state: @grammyjs/storage-redis `RedisAdapter` (a flow started on instance A
 *     continues on instance B);
 *   - update dedupe: `SET <ns>upd:<update_id> 1 NX EX <ttl>`, so a duplicate delivered to two
 *     instances is handled once (the journal's created→sent race still guards the money);
 *   - the incoming rate limiter (@grammyjs/ratelimiter), counted atomically (INCR + PEXPIRE in
 *     one Lua script: the plugin's own INCR-then-PEXPIRE leaves a counter without expiry, i.e. a
 *     user limited forever, if the process dies between the two).
 *
 * All keys live under `vtubot:<bot id>:` so two bots can share one Redis. The order journal,
 * allowlist, PINs, the PIN gate and each user's language stay in SQLite (see README, "Running several
 * instances").
 */
import Redis from 'ioredis';
import type { ConversationStorageAdapter, BotDeps, UpdateDedupe } from './bot';
import type { Logger } from './logger';

/** @grammyjs/storage-redis ships no CommonJS typings ("types" points at an ESM-only file). */
type RedisAdapterCtor = new (o: { instance: unknown; ttl?: number }) => ConversationStorageAdapter;

const RATE_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

export interface RedisShared {
	redis: Redis;
	/** Key prefix of every key this bot writes. */
	namespace: string;
	/** What createBot takes to share state through Redis. */
	deps: Required<Pick<BotDeps, 'conversationStorage' | 'rateLimitRedis' | 'updateDedupe'>>;
	close(): Promise<void>;
}

export interface RedisOptions {
	/** Bot token or bot id: keys are namespaced per bot (`vtubot:<id>:`). Only the numeric id is used. */
	botId: string | number;
	/** Window of the incoming rate limiter (BOT_RATE_WINDOW_MS). */
	rateWindowMs: number;
	logger?: Logger;
	/** Conversation state expiry (default 7 days; flows themselves time out after 30 minutes). */
	conversationTtlSeconds?: number;
	/** How long an update id is remembered (default 24 h; Telegram keeps undelivered updates 24 h). */
	dedupeTtlSeconds?: number;
}

/**
 * Connect to Redis and check it answers (PING), so a wrong REDIS_URL fails at start-up rather than
 * at the first update. The URL (which may hold a password) is never logged.
 */
export async function connectRedis(url: string, opts: RedisOptions): Promise<RedisShared> {
	const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3, enableOfflineQueue: true });
	redis.on('error', (e: Error) => opts.logger?.warn('redis error', { err: e.message }));
	try {
		await redis.connect();
		await redis.ping();
	} catch (e) {
		redis.disconnect();
		throw new Error(`Redis (REDIS_URL) is not reachable: ${e instanceof Error ? e.message : String(e)}`);
	}
	return sharedState(redis, opts);
}

/** The shared-state adapters over an existing ioredis client. */
export function sharedState(redis: Redis, opts: RedisOptions): RedisShared {
	const id = String(opts.botId).split(':')[0];
	const ns = `vtubot:${id}:`;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { RedisAdapter } = require('@grammyjs/storage-redis') as { RedisAdapter: RedisAdapterCtor };
	const adapter = new RedisAdapter({ instance: redis, ttl: opts.conversationTtlSeconds ?? 7 * 86_400 });
	const conversationStorage: ConversationStorageAdapter = {
		read: (key) => adapter.read(ns + key),
		write: (key, state) => adapter.write(ns + key, state),
		delete: (key) => adapter.delete(ns + key),
	};
	const windowMs = Math.max(1, Math.floor(opts.rateWindowMs));
	const rateLimitRedis = {
		incr: async (key: string) => Number(await redis.eval(RATE_SCRIPT, 1, `${ns}rl:${key}`, windowMs)),
		// The script above already set the expiry together with the first increment.
		pexpire: async () => 1,
	};
	const dedupeTtl = opts.dedupeTtlSeconds ?? 86_400;
	const updateDedupe: UpdateDedupe = {
		firstSeen: async (updateId) => (await redis.set(`${ns}upd:${updateId}`, '1', 'EX', dedupeTtl, 'NX')) === 'OK',
	};
	return {
		redis,
		namespace: ns,
		deps: { conversationStorage, rateLimitRedis, updateDedupe },
		async close() {
			try {
				await redis.quit();
			} catch {
				redis.disconnect();
			}
		},
	};
}
