/** Units: configuration, journal state machine and limits, allowlist, PIN hashing/lockout, storage, redaction. */
import { retryKind } from '../../bot/flow/retry';
import { mkdtempSync } from 'node:fs';
import type { Api } from 'grammy';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Access, Pins } from '../../bot/access';
import { ConfigError, loadConfig, secretsOf } from '../../bot/config';
import { openDatabase } from '../../bot/db';
import { Journal, lagosDayStart } from '../../bot/journal';
import { createLogger, redactor } from '../../bot/logger';
import { SqliteStorage } from '../../bot/storage';
import { LiveKeyboards } from '../../bot/flow/live-keyboards';
import { nonGsmChars, recipientsFromCsv, recipientsFromText } from '../../bot/features/sms-recipients';
import { amountProblem } from '../../bot/features/airtime';
import { stateLabel, userError } from '../../bot/orders';
import { text } from './texts';

const TOKEN = '123456789:AAHsecret-part_of_the_token_xyz';
const API_TOKEN = 'f'.repeat(40);

describe('config', () => {
	const base = {
		TELEGRAM_BOT_TOKEN: TOKEN,
		VTU_BASE_URL: 'http://127.0.0.1:8080/api/',
		VTU_API_TOKEN: API_TOKEN,
		BOT_ADMIN_IDS: '11, 22',
		BOT_ALLOWED_IDS: '33',
	};

	test('valid environment with defaults; money in kobo', () => {
		const c = loadConfig({ ...base, BOT_MAX_PURCHASE_NAIRA: '2500.50', BOT_PIN_REQUIRED: 'yes' });
		expect(c).toMatchObject({
			adminIds: [11, 22],
			allowedIds: [33],
			maxPurchaseKobo: 250_050,
			dailyLimitKobo: 5_000_000,
			pinRequired: true,
			tokenShared: false,
			dbPath: './vtu-bot.sqlite',
			apiRoot: 'https://api.telegram.org',
			mode: 'polling',
			redisUrl: undefined,
		});
		expect(loadConfig({ ...base, TELEGRAM_API_ROOT: 'http://localhost:8081/' }).apiRoot).toBe('http://localhost:8081');
		expect(loadConfig({ ...base, VTU_TOKEN_SHARED: 'true' }).tokenShared).toBe(true);
		expect(loadConfig(base).customerRef).toBe(false);
		expect(loadConfig({ ...base, VTU_CUSTOMER_REF: 'true' }).customerRef).toBe(true);
	});

	test("naira limits use the client's parser: grouping and ₦ accepted, a third decimal or a negative refused", () => {
		expect(loadConfig({ ...base, BOT_DAILY_LIMIT_NAIRA: '₦1,250,000.5' }).dailyLimitKobo).toBe(125_000_050);
		expect(loadConfig({ ...base, BOT_MAX_PURCHASE_NAIRA: '0.1' }).maxPurchaseKobo).toBe(10);
		for (const bad of ['100.005', '-5', '1e3', 'lots']) {
			expect(() => loadConfig({ ...base, BOT_MAX_PURCHASE_NAIRA: bad })).toThrow(
				/BOT_MAX_PURCHASE_NAIRA must be an amount in naira/,
			);
		}
	});

	test('the Redis password is among the redacted secrets', () => {
		const c = loadConfig({ ...base, REDIS_URL: 'redis://default:s3cret-redis-pw@10.0.0.5:6379/0' });
		expect(secretsOf(c)).toEqual(
			expect.arrayContaining(['s3cret-redis-pw', 'redis://default:s3cret-redis-pw@10.0.0.5:6379/0']),
		);
	});

	test('every problem is listed at once, and no secret value is echoed', () => {
		let err: ConfigError | undefined;
		try {
			loadConfig({
				TELEGRAM_BOT_TOKEN: 'not-a-token-but-secret-ish',
				VTU_API_TOKEN: 'short',
				BOT_MODE: 'webhook',
				BOT_ALLOWED_IDS: '12,abc',
				BOT_DAILY_LIMIT_NAIRA: 'lots',
			});
		} catch (e) {
			err = e as ConfigError;
		}
		expect(err).toBeInstanceOf(ConfigError);
		const msg = err!.message;
		for (const name of [
			'TELEGRAM_BOT_TOKEN',
			'VTU_BASE_URL',
			'VTU_API_TOKEN',
			'BOT_ALLOWED_IDS',
			'BOT_DAILY_LIMIT_NAIRA',
			'WEBHOOK_URL',
			'WEBHOOK_SECRET',
		]) {
			expect(msg).toContain(name);
		}
		expect(msg).not.toContain('not-a-token-but-secret-ish');
		expect(msg).not.toContain('short"');
	});

	test('nobody allowed is an error', () => {
		expect(() => loadConfig({ ...base, BOT_ADMIN_IDS: '', BOT_ALLOWED_IDS: '' })).toThrow(
			/BOT_ADMIN_IDS or BOT_ALLOWED_IDS/,
		);
	});
});

describe('journal', () => {
	let now = Date.UTC(2026, 10, 21, 10, 0, 0);
	const clock = { now: () => now };
	const limits = { maxPurchaseKobo: 100_000, dailyLimitKobo: 150_000 };
	const mk = (j: Journal, user = 1, kobo = 50_000) =>
		j.create({
			userId: user,
			chatId: user,
			product: 'data',
			request: { product: 'data' },
			description: 'x',
			recipient: '08031234567',
			amountKobo: kobo,
		});

	test('created → sent happens once; later callers see the state', () => {
		const j = new Journal(openDatabase(':memory:'), clock);
		const o = mk(j);
		expect(o.state).toBe('created');
		const r1 = j.beginSend(o.id, limits);
		const r2 = j.beginSend(o.id, limits);
		expect(r1.ok).toBe(true);
		expect(r2).toMatchObject({ ok: false, reason: 'state', order: { state: 'sent' } });
		expect(j.cancel(o.id)).toBe(false);
		expect(j.listByState('sent').map((x) => x.id)).toEqual([o.id]);
	});

	test('limits: per purchase, and daily per user across spending states (failed/not charged do not count)', () => {
		const j = new Journal(openDatabase(':memory:'), clock);
		expect(j.beginSend(mk(j, 1, 100_001).id, limits)).toMatchObject({ ok: false, reason: 'max_purchase' });
		const a = mk(j);
		j.beginSend(a.id, limits);
		j.recordResult(a.id, {
			status: 'successful',
			ident: 'D1',
			id: 1,
			amountKobo: 50_000,
			balanceAfterKobo: 0,
			message: '',
			path: 'direct',
			details: {},
			createdAt: null,
			recipient: null,
		});
		const b = mk(j);
		j.beginSend(b.id, limits);
		j.recordError(b.id, 'unknown', 'unknown_outcome', 'x'); // may be charged: counts
		expect(j.spentToday(1)).toBe(100_000);
		expect(j.beginSend(mk(j, 1, 60_000).id, limits)).toMatchObject({
			ok: false,
			reason: 'daily_limit',
			spentKobo: 100_000,
		});
		expect(j.beginSend(mk(j, 2, 60_000).id, limits).ok).toBe(true); // other user
		const c = mk(j);
		j.beginSend(c.id, limits);
		j.recordError(c.id, 'not_charged', 'insufficient_balance', 'x');
		expect(j.spentToday(1)).toBe(150_000 - 50_000);
		// The next Lagos day starts at 23:00 UTC.
		now = Date.UTC(2026, 10, 21, 23, 0, 0);
		expect(j.spentToday(1)).toBe(0);
		now = Date.UTC(2026, 10, 21, 10, 0, 0);
	});

	test('Lagos day boundaries', () => {
		expect(new Date(lagosDayStart(Date.UTC(2026, 10, 21, 10))).toISOString()).toBe('2026-11-20T23:00:00.000Z');
		expect(new Date(lagosDayStart(Date.UTC(2026, 10, 21, 23, 30))).toISOString()).toBe('2026-11-21T23:00:00.000Z');
	});

	test('update dedupe and stale orders', () => {
		const j = new Journal(openDatabase(':memory:'), clock);
		expect(j.firstSeen(42)).toBe(true);
		expect(j.firstSeen(42)).toBe(false);
		const o = mk(j);
		now += 60_000;
		expect(j.expireStale(30_000)).toBe(1);
		expect(j.get(o.id)!.state).toBe('expired');
		expect(j.beginSend(o.id, limits)).toMatchObject({ ok: false, reason: 'state' });
	});

	// and the winner of the race gets the sent row
	test('beginSend refuses and closes in one transaction: too old → expired, over a limit → cancelled', () => {
		const j = new Journal(openDatabase(':memory:'), clock);
		const old = mk(j);
		now += 60_000;
		expect(j.beginSend(old.id, limits, 30_000)).toMatchObject({ ok: false, reason: 'expired', order: { id: old.id } });
		expect(j.get(old.id)!.state).toBe('expired');
		const big = mk(j, 1, 100_001);
		expect(j.beginSend(big.id, limits, 30_000)).toMatchObject({ ok: false, reason: 'max_purchase' });
		expect(j.get(big.id)!.state).toBe('cancelled');
		const fresh = mk(j);
		expect(j.beginSend(fresh.id, limits, 30_000)).toEqual({ ok: true, order: j.get(fresh.id) });
		expect(j.get(fresh.id)).toMatchObject({ state: 'sent', sentAt: now });
		now -= 60_000;
	});

	test('file database survives reopen (migrations idempotent)', () => {
		const dir = mkdtempSync(join(tmpdir(), 'j-'));
		const p = `${dir}/j.sqlite`;
		const db1 = openDatabase(p);
		const id = mk(new Journal(db1, clock)).id;
		db1.close();
		const db2 = openDatabase(p);
		expect(new Journal(db2, clock).get(id)!.state).toBe('created');
		db2.close();
	});
});

describe('access and PIN', () => {
	test('allowlist: admins, env list, persisted allow/deny', () => {
		const db = openDatabase(':memory:');
		const a = new Access(db, { adminIds: [1], allowedIds: [2] });
		expect([a.isAllowed(1), a.isAllowed(2), a.isAllowed(3), a.isAllowed(undefined)]).toEqual([
			true,
			true,
			false,
			false,
		]);
		a.allow(3, 1);
		expect(a.deny(2, 1)).toBe(true);
		expect(a.deny(1, 1)).toBe(false);
		expect([a.isAllowed(2), a.isAllowed(3)]).toEqual([false, true]);
		expect(new Access(db, { adminIds: [1], allowedIds: [2] }).listAllowed()).toEqual([1, 3]);
	});

	test('scrypt with a per-user salt; lockout after N failures, released after the lock time', () => {
		let now = 1_000_000;
		const db = openDatabase(':memory:');
		const pins = new Pins(db, { maxFailures: 3, lockMs: 60_000 }, { now: () => now });
		expect(() => pins.set(1, '12')).toThrow();
		pins.set(1, '2468');
		pins.set(2, '2468');
		const rows = db.prepare('SELECT hash, salt FROM pins ORDER BY user_id').all() as { hash: string; salt: string }[];
		expect(rows[0].hash).not.toBe(rows[1].hash);
		// the PIN is stored as neither column (a substring test would trip on random hex that happens to hold "2468")
		for (const r of rows) {
			expect([r.hash, r.salt]).not.toContain('2468');
			expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
		}
		expect(pins.verify(1, '2468')).toEqual({ ok: true });
		expect(pins.verify(1, '0000')).toEqual({ ok: false, reason: 'wrong', attemptsLeft: 2 });
		expect(pins.verify(1, '0000')).toEqual({ ok: false, reason: 'wrong', attemptsLeft: 1 });
		expect(pins.verify(1, '0000')).toMatchObject({ ok: false, reason: 'locked', until: 1_060_000 });
		expect(pins.verify(1, '2468')).toMatchObject({ ok: false, reason: 'locked' }); // even the right PIN
		now += 60_001;
		expect(pins.verify(1, '0000')).toEqual({ ok: false, reason: 'wrong', attemptsLeft: 2 });
		expect(pins.verify(1, '2468')).toEqual({ ok: true });
		expect(pins.verify(9, '2468')).toEqual({ ok: false, reason: 'no_pin' });
	});
});

describe('storage and logs', () => {
	test('SqliteStorage implements read/write/delete/has/readAllKeys with a prefix', () => {
		const db = openDatabase(':memory:');
		const s = new SqliteStorage<{ n: number }>(db, 'conv:');
		expect(s.read('1')).toBeUndefined();
		s.write('1', { n: 1 });
		s.write('2', { n: 2 });
		s.write('1', { n: 3 });
		expect(s.read('1')).toEqual({ n: 3 });
		expect(s.has('2')).toBe(true);
		s.delete('2');
		expect([...s.readAllKeys()]).toEqual(['1']);
		expect([...new SqliteStorage(db, 'other:').readAllKeys()]).toEqual([]);
	});

	test('LiveKeyboards keeps the newest 10 ids, once each, in order; clear takes every button away', async () => {
		const db = openDatabase(':memory:');
		const kb = new LiveKeyboards(db);
		for (const id of [1, 2, 3, 2]) kb.track(7, id);
		kb.track(8, 99);
		expect(new SqliteStorage<number[]>(db, 'kb:').read('7')).toEqual([1, 2, 3]);
		for (let id = 10; id <= 21; id++) kb.track(7, id);
		expect(new SqliteStorage<number[]>(db, 'kb:').read('7')).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
		const edited: number[] = [];
		const api = { editMessageReplyMarkup: async (_chat: number, id: number) => void edited.push(id) } as unknown as Api;
		await kb.clear(7, api, createLogger({ level: 'error', secrets: [], write: () => undefined }));
		expect(edited).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
		expect(new SqliteStorage<number[]>(db, 'kb:').read('7')).toBeUndefined();
		expect(new SqliteStorage<number[]>(db, 'kb:').read('8')).toEqual([99]); // other chats untouched
	});

	test('the logger redacts configured secrets, also inside errors', () => {
		const lines: string[] = [];
		const log = createLogger({ level: 'info', secrets: [TOKEN, API_TOKEN], write: (l) => lines.push(l) });
		log.info(`calling https://api.telegram.org/bot${TOKEN}/getMe`, { err: new Error(`Token ${API_TOKEN} refused`) });
		log.debug('hidden');
		expect(lines).toHaveLength(1);
		expect(lines[0]).not.toContain(TOKEN);
		expect(lines[0]).not.toContain(API_TOKEN);
		expect(lines[0]).toContain('[redacted]');
		expect(redactor(['abcdefgh'])('xxabcdefghxx')).toBe('xx[redacted]xx');
	});
});

describe('seller texts and parsing (issue 14)', () => {
	test('text recipients: one line is one entry; commas may separate, spaces never do', () => {
		expect(recipientsFromText('0803 123 4567\ncall 0803\r\n08051234567, 07012345678;0809-123-4567\n\n  \nx')).toEqual({
			numbers: ['08031234567', '08051234567', '07012345678', '08091234567'],
			duplicates: 0,
			named: 0,
			bad: [
				{ where: 'line 2', value: 'call 0803', reason: text('sms-reason-letters') },
				{ where: 'line 6', value: 'x', reason: text('sms-reason-letters') },
			],
		});
	});

	test('csv recipients: header by name (any position), header by content, no header, quoted cells', () => {
		expect(recipientsFromCsv('Name,Mobile Number,City\nAda,08031234567,Lagos\n"Obi, Chi",bad,Kano\n')).toEqual({
			numbers: ['08031234567'],
			duplicates: 0,
			named: 0,
			bad: [{ where: 'row 3', value: 'bad', reason: text('sms-reason-letters') }],
			column: '"Mobile Number" column',
		});
		expect(recipientsFromCsv('who,where,cell\nAda,Lagos,08031234567\nBola,Abuja,+2348051234567\n').column).toBe(
			text('sms-column-named', { name: 'cell' }),
		);
		expect(recipientsFromCsv('08031234567\n08051234567\n')).toEqual({
			numbers: ['08031234567', '08051234567'],
			duplicates: 0,
			named: 0,
			bad: [],
			column: 'column 1',
		});
		expect(recipientsFromCsv('name,city\nAda,Lagos\n')).toEqual({ numbers: [], duplicates: 0, named: 0, bad: [] });
	});

	test('non-GSM characters', () => {
		expect(nonGsmChars('Hello [world] €5 @ 10:00 ü')).toEqual([]);
		expect(nonGsmChars('Promo 🎉🎉 “now”')).toEqual(['🎉', '“', '”']);
	});

	test('airtime amounts', () => {
		// the client's parser of amounts (client/input.ts), so the bot buys exactly what a client call or a node
		// would; its refusal said in the catalogue's words (bot/refusals.ts)
		expect(amountProblem('200.555', 1_000_000)).toBe(text('input-amount-decimals', { example: '200.55' }));
		expect(amountProblem('200.55', 1_000_000)).toBeNull();
		expect(amountProblem('₦1,500', 1_000_000)).toBe(text('input-amount-plain', { example: '1500' }));
		expect(amountProblem('49.99', 1_000_000)).toBe(text('airtime-too-small', { min: '₦50.00' }));
		expect(amountProblem('abc', 1_000_000)).toBe(text('input-amount'));
	});

	test('states and errors in seller words: no HTTP codes, paths or builds', () => {
		expect(stateLabel({ state: 'successful', chargedKobo: 100, amountKobo: 100 })).toBe(text('state-successful'));
		expect(stateLabel({ state: 'processing', chargedKobo: 100, amountKobo: 100 })).toBe(text('state-pending'));
		expect(stateLabel({ state: 'unknown', chargedKobo: null, amountKobo: 100 })).toBe(text('state-pending'));
		expect(stateLabel({ state: 'failed', chargedKobo: 25_000, amountKobo: 25_000 })).toBe(
			text('state-refunded', { amount: '₦250.00' }),
		);
		expect(stateLabel({ state: 'failed', chargedKobo: null, amountKobo: 25_000 })).toBe(text('state-failed'));
		expect(stateLabel({ state: 'not_charged', chargedKobo: null, amountKobo: 25_000 })).toBe(text('state-failed'));
		// the client's message (for developers, e.g. "HTTP 500 on GET /api/…") is never read: a text per code
		for (const code of ['server', 'bad_response', null]) expect(userError(code)).toBe(text('err-other'));
		expect(userError('invalid_input')).toBe(text('err-invalid-input'));
		expect(userError('invalid_input', 'phone')).toBe(text('err-refused-phone'));
	});
});

describe('retryKind: what "Try again" does after a refusal before anything was bought', () => {
	const reask = { fields: ['phone'], ask: async () => ({}) as never };
	test('nothing typed was wrong (wallet, limit, float): the same choices again', () => {
		expect(retryKind(undefined, reask)).toBe('same');
		expect(retryKind(undefined)).toBe('same');
	});
	test('a detail the flow can ask alone: that detail again; any other detail: the flow from its start', () => {
		expect(retryKind({ field: 'phone' }, reask)).toBe('reask');
		expect(retryKind({ field: 'plan' }, reask)).toBe('restart');
		expect(retryKind({}, reask)).toBe('restart');
		expect(retryKind({ field: 'phone' })).toBe('restart');
	});
});
