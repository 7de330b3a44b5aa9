/**
 * Issue 19, item 3: bot/README "Running several instances" as written (two webhook instances, one token,
 * one SQLite file, VTU_TOKEN_SHARED left false). A user buys on instance B; another user orders the same on
 * instance A and A's POST gets a 500 before any charge. A's client, which never saw B's purchase (another
 * process), finds B's record as the lone match: A must not adopt it.
 */
import { VtuClient } from '../../client';
import { openDatabase } from '../../bot/db';
import { Journal } from '../../bot/journal';
import { dataToConfirm, newProcessMemory, useBotEnv } from './harness';
import { notChargedOutcome, outcomeHead, text, unknownOutcome, what } from './texts';
import { until } from '../until';

const env = useBotEnv();

test("two instances, one journal: A never reports B's record as its own; A is proven not charged", async () => {
	// the vendor's bound covers B's slow purchase (2 s): A cannot call itself not charged before B's record exists
	const slowRead = { waitMs: 8000, pollMs: 100, sharedAccount: false, maxProcessingMs: 3000 };
	// instance B: waits for its slow vendor's answer (its purchase is not ambiguous)
	const clientB = new VtuClient({
		baseUrl: env.sb.baseUrl,
		token: env.sb.demo.token,
		timeoutMs: 10_000,
		reconcile: slowRead,
	});
	const b = await env.makeBot({}, env.dbPath, clientB);
	newProcessMemory(); // A is another process: its client shares no memory with B's
	let later = 0; // A's clock (its bot's and its client's), moved to the unclear order's next check
	const clientA = new VtuClient({
		baseUrl: env.sb.baseUrl,
		token: env.sb.demo.token,
		timeoutMs: 1500,
		reconcile: slowRead,
		now: () => Date.now() + later,
	});
	// instance A: same SQLite file
	const a = await env.makeBot({}, env.dbPath, clientA, { clock: { now: () => Date.now() + later } });

	await dataToConfirm(env, b, env.alice);
	await dataToConfirm(env, a, env.bob);
	// B's purchase is slow: its record is created while A's purchase is being reconciled.
	const slow = await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'latency', latencyMs: 2000, count: 1 });
	const bDone = env.send(b, env.tg.buttonUpdate(env.alice, /^confirm:/));
	await until(async () => !(await env.admin.faults()).some((f) => f.id === slow.id && f.hits === 0), 'B at the vendor');
	await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'error_before', count: 1 }); // A's POST: 500, no charge
	await env.send(a, env.tg.buttonUpdate(env.bob, /^confirm:/));
	await bDone;
	expect(env.tg.lastText(env.alice.id)).toMatch(
		new RegExp(`^${outcomeHead('successful', what('MTN data 1GB SME (30 days)', '0803 123 4567'))}`),
	);
	const first = b.journal.recentForUser(env.alice.id)[0];
	expect(first.ident).toBeTruthy();

	const bobSaw = () => env.tg.textsTo(env.bob.id).join('\n');
	expect(bobSaw()).not.toContain(text('state-successful'));
	expect(bobSaw()).not.toContain(first.ident!);
	const order = a.journal.recentForUser(env.bob.id)[0];
	expect(order).toMatchObject({ state: 'unknown', ident: null, vendorId: null });
	expect(env.tg.lastText(env.bob.id)).toMatch(
		new RegExp(`^${unknownOutcome(what('MTN data 1GB SME (30 days)', '0803 123 4567'))}$`),
	);
	expect(env.logs.some((l) => l.includes('reconciled record not adopted'))).toBe(true); // A's client did find B's record

	// A's follower checks with every instance's claims (the shared journal): B's record is B's, so A was not charged.
	await a.follower.tick();
	expect(a.journal.get(order.id)!.state).toBe('unknown'); // not due yet
	later = order.recheckAt! - Date.now();
	await a.follower.tick();
	expect(a.journal.get(order.id)).toMatchObject({ state: 'not_charged', ident: null });
	expect(env.tg.lastText(env.bob.id)).toMatch(
		new RegExp(notChargedOutcome(what('MTN data 1GB SME (30 days)', '0803 123 4567'))),
	);
	expect(bobSaw()).not.toContain(first.ident!);
	// B's order is untouched: one record, one debit, owned once.
	expect(b.journal.get(first.id)).toMatchObject({ state: 'successful', ident: first.ident });
	expect(await env.debits()).toBe(1);
});

test("A's own record after a lost answer is still adopted when no other order may own it", async () => {
	const b = await env.makeBot();
	// A's POST gives up long after the sandbox wrote its record: on a loaded machine a 1.5 s timeout could fire
	// while the purchase was still being written (its wallet row already there), and the answer was honestly unknown
	const clientA = new VtuClient({
		baseUrl: env.sb.baseUrl,
		token: env.sb.demo.token,
		timeoutMs: 10_000,
		reconcile: { waitMs: 1500, pollMs: 200, sharedAccount: false, maxProcessingMs: 0 },
	});
	const a = await env.makeBot({}, env.dbPath, clientA);
	await dataToConfirm(env, b, env.alice, { phone: '0803 111 0001' });
	await env.send(b, env.tg.buttonUpdate(env.alice, /^confirm:/));
	newProcessMemory();
	// A's debit happens, its answer is lost
	await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'timeout_after', count: 1 });
	await dataToConfirm(env, a, env.bob, { phone: '0803 111 0002' });
	await env.send(a, env.tg.buttonUpdate(env.bob, /^confirm:/));
	const order = a.journal.recentForUser(env.bob.id)[0];
	expect(order.state).toBe('successful');
	expect(order.ident).not.toBe(b.journal.recentForUser(env.alice.id)[0].ident);
	expect(env.tg.lastText(env.bob.id)).toMatch(
		new RegExp(`^${outcomeHead('successful', what('MTN data 1GB SME (30 days)', '0803 111 0002'))}`),
	);
	expect(await env.debits()).toBe(2);
});

test('Journal.adopt on one file: of two instances that found the same record, only one takes it', () => {
	const dbA = openDatabase(env.dbPath);
	const dbB = openDatabase(env.dbPath);
	const [a, b] = [new Journal(dbA), new Journal(dbB)];
	const limits = { maxPurchaseKobo: 1e9, dailyLimitKobo: 1e9 };
	const mk = (j: Journal, phone: string) => {
		const o = j.create({
			userId: 1,
			chatId: 1,
			product: 'data',
			request: {},
			description: 'MTN data 1GB',
			recipient: phone,
			amountKobo: 25_000,
		});
		expect(j.beginSend(o.id, limits).ok).toBe(true);
		return o.id;
	};
	const record = {
		status: 'successful' as const,
		ident: 'Data1',
		id: 1,
		amountKobo: 25_000,
		balanceAfterKobo: null,
		message: '',
		path: 'reconciled',
		details: {},
		createdAt: null,
		recipient: null,
	};
	// Different recipients (not identical orders), the same record found by both: the second is refused.
	const x = mk(a, '08031110001');
	const y = mk(b, '08031110002');
	expect(a.adopt(x, record)).toMatchObject({ ok: true });
	expect(b.adopt(y, record)).toMatchObject({ ok: false, reason: 'owned', other: x });
	expect(b.get(y)!.state).toBe('sent');
	// Identical orders: while one is open, a lone record cannot be taken by the other.
	const p = mk(a, '08031110003');
	const q = mk(b, '08031110003');
	expect(b.adopt(q, { ...record, ident: 'Data2', id: 2 })).toMatchObject({ ok: false, reason: 'identical_open' });
	a.recordError(p, 'not_charged', 'not_charged', 'proven');
	expect(b.adopt(q, { ...record, ident: 'Data2', id: 2 })).toMatchObject({ ok: true });
	dbA.close();
	dbB.close();
});
