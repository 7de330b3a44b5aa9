/** The follower: processing → settle, refunds, and reconciling orders a crash left in `sent`. */
import { openDatabase } from '../../bot/db';
import { Journal } from '../../bot/journal';
import { rawBuy } from '../client/helpers';
import { dataToConfirm, useBotEnv } from './harness';
import { afterRestart, lines, notChargedOutcome, outcomeHead, source, text, updateOn, what } from './texts';

const env = useBotEnv();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Button texts of the newest message the bot sent to a chat. */
const lastButtons = (chatId: number) =>
	(env.tg.botMessages(chatId).at(-1)?.reply_markup?.inline_keyboard ?? []).flat().map((b: { text: string }) => b.text);

test('processing → successful: the user is told once when it settles', async () => {
	await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 300, finalStatus: 'successful' } });
	const app = await env.makeBot();
	const u = env.alice;
	await dataToConfirm(env, app, u);
	await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
	const first = env.tg.lastText(u.id)!;
	const pending = lines(
		[
			'outcome-head',
			{ icon: '⏳', label: text('state-pending'), what: what('MTN data 1GB SME (30 days)', '0803 123 4567') },
		],
		['outcome-charged', { charged: '₦250.00' }],
		['outcome-reference', { ref: /(\S+)/ }],
		['outcome-pending-note'],
	);
	expect(first).toMatch(new RegExp(`${pending.source}$`));
	const ident = pending.exec(first)![1];
	expect(ident).toBe(app.journal.recentForUser(u.id)[0].id); // the order's reference, kept in every later message
	// no "Buy again" while it may still deliver
	expect(lastButtons(u.id)).toEqual([text('btn-details'), text('btn-menu')]);
	await app.follower.tick(); // still processing: nothing said
	expect(env.tg.lastText(u.id)).toBe(first);
	await sleep(400);
	await app.follower.tick();
	expect(env.tg.lastText(u.id)).toMatch(
		updateOn(ident, outcomeHead('successful', what('MTN data 1GB SME (30 days)', '0803 123 4567'))),
	);
	// a notice is no dead end
	expect(lastButtons(u.id)).toEqual([text('btn-buy-again'), text('btn-details'), text('btn-menu')]);
	const n = env.tg.textsTo(u.id).length;
	await app.follower.tick();
	expect(env.tg.textsTo(u.id)).toHaveLength(n);
	expect(app.journal.recentForUser(u.id)[0]).toMatchObject({ state: 'successful', notifiedState: 'successful' });
	expect(await env.debits()).toBe(1);
});

test('processing → failed: told it failed; the sandbox refunded', async () => {
	await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 200, finalStatus: 'failed' } });
	const app = await env.makeBot();
	await dataToConfirm(env, app, env.bob);
	await env.send(app, env.tg.buttonUpdate(env.bob, /^confirm:/));
	await sleep(300);
	await app.follower.tick();
	expect(env.tg.lastText(env.bob.id)).toMatch(
		updateOn(
			/\S+/,
			source('outcome-head', {
				icon: '↩️',
				label: text('state-refunded', { amount: '₦250.00' }),
				what: /MTN data .*/,
			}) + `\\n[^]*${source('outcome-refunded-note')}$`,
		),
	);
	expect(lastButtons(env.bob.id)).toEqual([text('btn-try-again'), text('btn-details'), text('btn-menu')]);
	const kinds = (await env.demoLedger()).map((e) => e.kind);
	expect(kinds.filter((k) => k === 'debit')).toHaveLength(1);
	expect(kinds.filter((k) => k === 'refund')).toHaveLength(1);
});

test('successful → failed (refund) is reported', async () => {
	const app = await env.makeBot({ followIntervalMs: 1 });
	const u = env.alice;
	await dataToConfirm(env, app, u);
	await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
	const delivered = new RegExp(`^${outcomeHead('successful', what('MTN data 1GB SME (30 days)', '0803 123 4567'))}`);
	expect(env.tg.lastText(u.id)).toMatch(delivered);
	const o = app.journal.recentForUser(u.id)[0];
	await app.follower.tick();
	expect(env.tg.lastText(u.id)).toMatch(delivered); // no change, no message
	await env.admin.setStatus('data', o.vendorId!, 'failed');
	await sleep(10);
	await app.follower.tick();
	expect(env.tg.lastText(u.id)).toBe(
		text('notice-refund', {
			amount: '₦250.00',
			what: what('MTN data 1GB SME (30 days)', '0803 123 4567'),
			ref: o.id,
		}),
	);
	expect(app.journal.get(o.id)!.state).toBe('failed');
	const ledger = await env.demoLedger();
	expect(ledger.filter((e) => e.kind === 'refund').map((e) => e.amountKobo)).toEqual([25_000]);
	// A failed order no longer counts toward the daily limit.
	expect(app.journal.spentToday(u.id)).toBe(0);
});

test('orders found in `sent` at start-up (crash mid-purchase) are reconciled: adopted or not charged', async () => {
	// Simulate the crash: the journal says `sent`, the bot died before recording the answer.
	const db = openDatabase(env.dbPath);
	const journal = new Journal(db);
	const limits = { maxPurchaseKobo: 1e9, dailyLimitKobo: 1e9 };
	const reqA = { product: 'data', network: 1, plan: 2, phone: '08031234567', ported: false };
	const a = journal.create({
		userId: env.alice.id,
		chatId: env.alice.id,
		product: 'data',
		request: reqA,
		description: 'MTN data 1GB SME (30 days)',
		recipient: '08031234567',
		amountKobo: 25_000,
	});
	expect(journal.beginSend(a.id, limits).ok).toBe(true);
	// The crashed process reached the server: charged (a raw POST: this process never saw its answer).
	const boughtId = await rawBuy(env.client, env.sb.demo.token, reqA as any);
	const bought = await env.client.transactions.get('data', boughtId);
	const reqB = { product: 'data', network: 1, plan: 2, phone: '08069999999', ported: false };
	const b = journal.create({
		userId: env.bob.id,
		chatId: env.bob.id,
		product: 'data',
		request: reqB,
		description: 'MTN data 1GB SME (30 days)',
		recipient: '08069999999',
		amountKobo: 25_000,
	});
	expect(journal.beginSend(b.id, limits).ok).toBe(true); // never reached the server
	db.close();

	const app = await env.makeBot(); // init() reconciles before taking updates
	expect(app.journal.get(a.id)).toMatchObject({
		state: 'successful',
		ident: bought.ident,
		notifiedState: 'successful',
	});
	expect(app.journal.get(b.id)).toMatchObject({ state: 'not_charged' });
	expect(env.tg.lastText(env.alice.id)).toMatch(
		afterRestart(outcomeHead('successful', what('MTN data 1GB SME (30 days)', '0803 123 4567'))),
	);
	expect(env.tg.lastText(env.bob.id)).toMatch(
		afterRestart(notChargedOutcome(what('MTN data 1GB SME (30 days)', '0806 999 9999'))),
	);
	expect(await env.debits()).toBe(1);
	// Nothing left to reconcile on the next start.
	expect(await app.follower.recoverSent()).toBe(0);
});
