/**
 * Group commit (bot/durable.ts): a purchase leaves only once its `sent` row is on disk, the fsync runs off the
 * event loop, and purchases confirmed while one fsync runs share the next one. Against the real sandbox.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../bot/db';
import { GroupSync, commitFile, fsyncFile } from '../../bot/durable';
import { Journal } from '../../bot/journal';
import { createLogger } from '../../bot/logger';
import { OrderService, userError } from '../../bot/orders';
import { useBotEnv } from './harness';
import { until } from '../until';

const env = useBotEnv();
const limits = { maxPurchaseKobo: 1e9, dailyLimitKobo: 1e9 };
const req = (phone: string) => ({ product: 'data', network: 1, plan: 2, phone, ported: false });

/** A sync the test finishes by hand: which files were asked, and a way to end each call. */
function heldSync() {
	const calls: { path: string; done: () => void; fail: (e: Error) => void }[] = [];
	const sync = (path: string) =>
		new Promise<void>((done, fail) => {
			calls.push({ path, done, fail });
		});
	return { calls, sync };
}

const settled = async (p: Promise<unknown>) => {
	let state = 'pending';
	p.then(
		() => (state = 'resolved'),
		() => (state = 'rejected'),
	);
	for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
	return state;
};

function order(journal: Journal, userId = 1) {
	const phone = `0803123456${userId}`;
	return journal.create({
		userId,
		chatId: userId,
		product: 'data',
		request: req(phone),
		description: 'MTN data 1GB SME (30 days)',
		recipient: phone,
		amountKobo: 25_000,
	});
}

test('the file a commit lands in: the WAL of a file database, none in memory', () => {
	const db = openDatabase(env.dbPath);
	expect(commitFile(db)).toBe(`${env.dbPath}-wal`);
	expect(existsSync(`${env.dbPath}-wal`)).toBe(true);
	db.close();
	expect(commitFile(openDatabase(':memory:'))).toBeNull();
});

test('callers during a sync share the next one, which starts after it; a failed sync fails its callers', async () => {
	const { calls, sync } = heldSync();
	const g = new GroupSync('/x-wal', sync);
	const first = g.durable();
	expect(calls.length).toBe(1);
	// committed while the first fsync may already be past their pages: they need one that starts later
	const later = [g.durable(), g.durable(), g.durable()];
	expect(calls.length).toBe(1);
	expect(await settled(later[0])).toBe('pending');
	calls[0].done();
	expect(await settled(first)).toBe('resolved');
	expect(calls.length).toBe(2);
	expect(await Promise.all(later.map(settled))).toEqual(['pending', 'pending', 'pending']);
	calls[1].fail(new Error('EIO'));
	await expect(later[0]).rejects.toThrow('EIO');
	// the next caller gets a fresh sync
	const again = g.durable();
	expect(calls.map((c) => c.path)).toEqual(['/x-wal', '/x-wal', '/x-wal']);
	calls[2].done();
	await again;
});

test('a real fsync of the WAL: the sent row is there for another connection afterwards', async () => {
	const journal = new Journal(openDatabase(env.dbPath), undefined, fsyncFile);
	const o = order(journal);
	expect(journal.beginSend(o.id, limits).ok).toBe(true);
	await journal.durable();
	const other = openDatabase(env.dbPath);
	expect(new Journal(other).get(o.id)!.state).toBe('sent');
	other.close();
	journal.db.close();
});

function service(journal: Journal) {
	return new OrderService({
		client: env.client,
		journal,
		limits,
		logger: createLogger({ level: 'error', write: () => undefined }),
		confirmTtlMs: 60_000,
		now: () => Date.now(),
		bounds: { maxProcessingMs: 300_000, recheckMs: 60_000 },
	});
}

test('the POST waits for the fsync: nothing reaches the vendor before the sent row is on disk', async () => {
	const { calls, sync } = heldSync();
	const journal = new Journal(openDatabase(join(env.dir, 'held.sqlite')), undefined, sync);
	const [a, b] = [order(journal, 1), order(journal, 2)];
	const run = [service(journal).execute(a.id), service(journal).execute(b.id)];
	expect(await settled(run[0])).toBe('pending');
	expect(journal.get(a.id)!.state).toBe('sent');
	expect(calls.length).toBe(1); // b's row was committed after a's sync began: it waits for the next one
	expect(await env.debits()).toBe(0);
	calls[0].done();
	await until(() => calls.length === 2, 'the second sync');
	calls[1].done();
	const outcomes = await Promise.all(run);
	expect(outcomes.map((o) => o.kind)).toEqual(['done', 'done']);
	expect(await env.debits()).toBe(2);
	journal.db.close();
});

test('a disk that will not sync: the purchase is not sent and the order says not charged, in plain words', async () => {
	const { calls, sync } = heldSync();
	const journal = new Journal(openDatabase(join(env.dir, 'broken.sqlite')), undefined, sync);
	const o = order(journal);
	const run = service(journal).execute(o.id);
	await until(() => calls.length === 1, 'the sync');
	calls[0].fail(new Error('EIO: i/o error, fsync'));
	const out = await run;
	expect(out).toMatchObject({ kind: 'done', order: { state: 'not_charged', errorCode: 'journal_unavailable' } });
	expect(userError('journal_unavailable')).toMatch(/could not save this order safely, so it did not send it/);
	expect(await env.debits()).toBe(0);
	journal.db.close();
});
