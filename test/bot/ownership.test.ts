/**
 * Issue 9, point 1: a bot restart between confirm and POST must never report an order successful with
 * another order's reference. The restarted bot is a new bot over the same SQLite file whose client
 * starts with an empty memory (processAccounts().clear(): what a new process has).
 */
import { processAccounts } from '../../client/purchase';
import { rawBuy } from '../client/helpers';
import { dataToConfirm, useBotEnv } from './harness';
import { afterRestart, notChargedOutcome, outcomeHead, unknownOutcome, what } from './texts';

const env = useBotEnv();
const limits = { maxPurchaseKobo: 1e9, dailyLimitKobo: 1e9 };

// a delivered order, then the same order confirmed and killed before its POST
test("the same order, killed before the POST → after restart: not charged, not the first one's ref", async () => {
	const first = await env.makeBot();
	const u = env.alice;
	await dataToConfirm(env, first, u);
	await env.send(first, env.tg.buttonUpdate(u, /^confirm:/));
	expect(env.tg.lastText(u.id)).toMatch(
		new RegExp(`^${outcomeHead('successful', what('MTN data 1GB SME (30 days)', '0803 123 4567'))}`),
	);
	const a = first.journal.recentForUser(u.id)[0];
	// The same order again, confirmed (journal says `sent`), the process killed before the POST left.
	const b = first.journal.create({
		userId: u.id,
		chatId: u.id,
		product: a.product,
		request: a.request,
		description: a.description,
		recipient: a.recipient,
		amountKobo: a.amountKobo,
	});
	expect(first.journal.beginSend(b.id, limits).ok).toBe(true);
	await first.close();

	processAccounts().clear();
	const restarted = await env.makeBot({}, env.dbPath, env.clientFor(env.sb.demo.token)); // init() recovers `sent` orders
	expect(restarted.journal.get(b.id)).toMatchObject({ state: 'not_charged', ident: null });
	expect(env.tg.lastText(u.id)).toMatch(
		afterRestart(notChargedOutcome(what('MTN data 1GB SME (30 days)', '0803 123 4567'))),
	);
	expect(
		restarted.journal
			.recentForUser(u.id)
			.filter((o) => o.state === 'successful')
			.map((o) => o.ident),
	).toEqual([a.ident]);
	expect(await env.debits()).toBe(1);
});

test('two identical orders interrupted, one record on the server → neither adopts it: both unknown', async () => {
	const first = await env.makeBot();
	const j = first.journal;
	const req = { product: 'data', network: 1, plan: 2, phone: '08031110006', ported: false };
	const mk = (userId: number) =>
		j.create({
			userId,
			chatId: userId,
			product: 'data',
			request: req,
			description: 'MTN data 1GB SME (30 days)',
			recipient: req.phone,
			amountKobo: 25_000,
		});
	const a = mk(env.alice.id);
	const b = mk(env.bob.id);
	expect(j.beginSend(a.id, limits).ok && j.beginSend(b.id, limits).ok).toBe(true);
	const id = await rawBuy(env.client, env.sb.demo.token, req as never); // one of them reached the server
	const ident = (await env.client.transactions.get('data', id)).ident!;
	await first.close();

	processAccounts().clear();
	const restarted = await env.makeBot({}, env.dbPath, env.clientFor(env.sb.demo.token));
	for (const o of [a, b]) {
		const now = restarted.journal.get(o.id)!;
		expect(now).toMatchObject({ state: 'unknown', errorCode: 'unknown_outcome', ident: null });
		expect(now.errorMessage).toMatch(/identical purchases were in flight/);
	}
	// the record is named to the user so they can check it (not claimed as theirs)
	expect(env.tg.lastText(env.alice.id)).toMatch(afterRestart(unknownOutcome(/[^]*/)));
	expect(ident).toMatch(/^Data/);
	expect(await env.debits()).toBe(1);
});
