/**
 * Issue 19: an unclear order resolves with the customer_ref its POST carried. The bot keeps the client's
 * `details.customerRef` in the journal and the follower passes it back to `client.reconcile`, so on a site
 * that echoes the reference (the sandbox behind its `customer_ref` switch) the order's own record is proven
 * its own, beside identical records of other buyers or of another instance's open order.
 */
import { VtuClient, type VtuClientOptions } from '../../client';
import type { VtuBot } from '../../bot/bot';
import { rawBuy } from '../client/helpers';
import { dataToConfirm, newProcessMemory, useBotEnv } from './harness';
import { outcomeHead, unknownOutcome, updateOn, what } from './texts';

const env = useBotEnv();
const BOUND_MS = 30_000;
const ITEM = what('MTN data 1GB SME (30 days)', '0803 123 4567');

beforeEach(() => env.admin.setConfig({ customer_ref: true }));

/** A client as bot/main.ts builds it with VTU_CUSTOMER_REF=true; `sharedAccount`: VTU_TOKEN_SHARED. */
function refClient(sharedAccount: boolean, now?: () => number): VtuClient {
	const opts: VtuClientOptions = {
		baseUrl: env.sb.baseUrl,
		token: env.sb.demo.token,
		timeoutMs: 1500,
		customerRef: true,
		reconcile: { waitMs: 600, pollMs: 100, sharedAccount, maxProcessingMs: BOUND_MS },
		...(now ? { now } : {}),
	};
	return new VtuClient(opts);
}

/** A clock the test moves: the follower's due times are judged on it. */
function testClock() {
	let offset = 0;
	return { now: () => Date.now() + offset, advance: (ms: number) => void (offset += ms) };
}

/**
 * The order's POST is debited and its answer lost (reset), and the account's history cannot be read while
 * the client reconciles (the site's list pages fail): the bot is left with an unclear order.
 */
async function confirmUnclear(app: VtuBot, user: typeof env.alice): Promise<string> {
	await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'reset_after', count: 1 });
	const reads = await env.admin.addFault({ endpoint: 'GET /api/data/', kind: 'error_before' });
	await env.send(app, env.tg.buttonUpdate(user, /^confirm:/));
	await env.admin.removeFault(reads.id);
	return app.journal.recentForUser(user.id)[0].id;
}

/** The account's data records carrying this customer_ref (what the sandbox stored from the POST). */
async function recordsWithRef(ref: string): Promise<number[]> {
	const txns = await env.admin.transactions({ username: env.sb.demo.username, product: 'data' });
	return txns.filter((t) => t.customerRef === ref).map((t) => t.id);
}

test('busy account: an order faulted after the debit resolves to its own record by its customer_ref', async () => {
	const clock = testClock();
	const client = refClient(true); // other buyers use the token: VTU_TOKEN_SHARED=true
	const app = await env.makeBot({ maxProcessingMs: BOUND_MS }, env.dbPath, client, { clock });
	await env.admin.startBusy({ rate: 20, mirrorShare: 0.5, maxRecords: 2_000, durationMs: 120_000 });
	env.cleanup(() => env.admin.stopBusy());
	await dataToConfirm(env, app, env.alice);
	const id = await confirmUnclear(app, env.alice);
	const o = app.journal.get(id)!;
	expect(o).toMatchObject({ state: 'unknown', errorCode: 'unknown_outcome' });
	expect(env.tg.lastText(env.alice.id)).toMatch(new RegExp(`^${unknownOutcome(ITEM)}$`));
	// the journal kept the reference the POST carried, and the sandbox stored exactly one record with it
	expect(o.customerRef).toMatch(/^[\w-]{16}$/);
	const own = await recordsWithRef(o.customerRef!);
	expect(own).toHaveLength(1);
	// another buyer of the account orders the identical bundle (no reference): a twin in the window
	const twin = await rawBuy(env.client, env.sb.demo.token, o.request as never);

	// Without the reference, a reconcile with everything else the journal knows cannot tell them apart.
	const ev = app.journal.evidenceFor(o, o.sentAt! - 86_400_000);
	const blind = await client.reconcile(o.request as never, { sentAt: new Date(o.sentAt!), ...ev, waitMs: 0 }).then(
		(r) => r,
		(e) => e,
	);
	expect(blind.code).toBe('unknown_outcome');
	const seen = (blind.candidates as { id: number }[]).map((c) => c.id);
	expect(seen).toEqual(expect.arrayContaining([own[0], twin]));

	// The follower passes the journalled reference back: the order's own record, nobody else's.
	clock.advance(BOUND_MS + 60_000); // due: the next check is no earlier than the vendor's bound
	await app.follower.tick();
	const after = app.journal.get(id)!;
	expect(after).toMatchObject({ state: 'successful', vendorId: own[0], notifiedState: 'successful' });
	expect(env.tg.lastText(env.alice.id)).toMatch(updateOn(id, outcomeHead('successful', ITEM)));
	expect(after.vendorId).not.toBe(twin);
});

test('two instances, one journal, identical orders both unclear: each resolves to its own record by ref', async () => {
	// bot/README "Running several instances": one SQLite file, VTU_TOKEN_SHARED left false
	const clock = testClock();
	const b = await env.makeBot({ maxProcessingMs: BOUND_MS }, env.dbPath, refClient(false), { clock });
	newProcessMemory(); // instance A is another process: its client shares no memory with B's
	const clientA = refClient(false);
	const a = await env.makeBot({ maxProcessingMs: BOUND_MS }, env.dbPath, clientA, { clock });
	await dataToConfirm(env, b, env.alice);
	await dataToConfirm(env, a, env.bob);
	const x = await confirmUnclear(b, env.alice);
	const y = await confirmUnclear(a, env.bob);
	const [ox, oy] = [a.journal.get(x)!, a.journal.get(y)!];
	for (const o of [ox, oy]) expect(o).toMatchObject({ state: 'unknown', vendorId: null });
	const [ownX, ownY] = [await recordsWithRef(ox.customerRef!), await recordsWithRef(oy.customerRef!)];
	expect([ownX.length, ownY.length]).toEqual([1, 1]);

	// Without the reference: two identical records, and the other order is open too: no proof either way.
	const ev = a.journal.evidenceFor(ox, ox.sentAt! - 86_400_000);
	expect(ev.identicalPending).toBe(1);
	const blind = await clientA.reconcile(ox.request as never, { sentAt: new Date(ox.sentAt!), ...ev, waitMs: 0 }).then(
		(r) => r,
		(e) => e,
	);
	expect(blind.code).toBe('unknown_outcome');
	expect((blind.candidates as { id: number }[]).map((c) => c.id).sort()).toEqual([...ownX, ...ownY].sort());

	// One instance's follower resolves both (the journal is shared), each to the record carrying its reference.
	clock.advance(BOUND_MS + 60_000);
	await a.follower.tick();
	expect(a.journal.get(x)).toMatchObject({ state: 'successful', vendorId: ownX[0] });
	expect(a.journal.get(y)).toMatchObject({ state: 'successful', vendorId: ownY[0] });
	expect(await env.debits()).toBe(2);
});
