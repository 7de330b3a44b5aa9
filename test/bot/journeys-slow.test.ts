/**
 * Journey: a slow vendor. At every step where the bot waits for the vendor (the plan list, an IUC
 * validation, the vendor wallet read as a till flow starts, the balance read before Confirm, the purchase of
 * each product, /balance) the customer sees a first sign of progress (a typing action, or a message sent or
 * edited) BEFORE the vendor answers: a proxy in front of the real sandbox parks the vendor's answer and is
 * lifted only once the test has seen the sign. And the typing stops with the answer: no typing action for
 * that step after its final message (checked once the next step's answer has arrived).
 */
import { VtuClient } from '../../client';
import { TYPING_AFTER_MS } from '../../bot/flow/confirm';
import type { VtuBot } from '../../bot/bot';
import type { FakeUser } from './fake-telegram';
import { useBotEnv } from './harness';
import { HoldProxy, openShop } from './journeys-kit';
import { confirmPattern, outcomeHead, pattern, source, text, what } from './texts';

const env = useBotEnv();
let proxy: HoldProxy;

beforeEach(async () => {
	proxy = await new HoldProxy(env.sb.baseUrl).start();
});
afterEach(async () => {
	await proxy.close();
});

/** A bot whose vendor calls go through the proxy; a client patient enough for a parked answer. */
function slowClient(): VtuClient {
	return new VtuClient({
		baseUrl: proxy.baseUrl,
		token: env.sb.demo.token,
		timeoutMs: 60_000,
		catalogTtlMs: 60_000,
		reconcile: { waitMs: 1500, pollMs: 200, sharedAccount: false, maxProcessingMs: 0 },
	});
}
const slowBot = (): Promise<VtuBot> => env.makeBot({}, env.dbPath, slowClient());

const forChat = (u: FakeUser, from: number) =>
	env.tg.calls.slice(from).filter((c) => Number(c.payload.chat_id) === u.id);
const isTyping = (c: { method: string; payload: Record<string, unknown> }) =>
	c.method === 'sendChatAction' && c.payload.action === 'typing';
const SIGNS = new Set(['sendChatAction', 'sendMessage', 'editMessageText']);

/**
 * One step that waits for the vendor: park `METHOD path`, send the update, wait until the request is
 * parked and a sign of progress has reached the chat, check the answer is not out yet, lift, and return
 * the index of the step's last call once the bot has finished the update.
 */
async function heldStep(
	app: VtuBot,
	u: FakeUser,
	vendor: [string, string],
	update: unknown,
	notYet: () => boolean,
): Promise<{ sign: string; end: number }> {
	const hold = proxy.hold(...vendor);
	const from = env.tg.calls.length;
	const handled = env.send(app, update);
	const unheld = handled.then(() => {
		throw new Error(`the step ended without asking the vendor ${vendor.join(' ')}`);
	});
	await Promise.race([hold.reached, unheld]);
	unheld.catch(() => undefined);
	await env.tg.waitFor(() => forChat(u, from).some((c) => SIGNS.has(c.method)), 30_000, `a sign for ${vendor}`);
	// the vendor has still not answered: the sign came first
	expect(hold.lifted).toBe(false);
	expect(notYet()).toBe(true);
	const sign = forChat(u, from).find((c) => SIGNS.has(c.method))!;
	hold.lift();
	await handled;
	return { sign: isTyping(sign) ? 'typing' : sign.method, end: env.tg.calls.length };
}

/** No typing action went to the chat between a step's end and the next step's start. */
function typingStoppedBetween(u: FakeUser, end: number, nextStart: number): void {
	const between = env.tg.calls.slice(end, nextStart).filter((c) => Number(c.payload.chat_id) === u.id && isTyping(c));
	expect(between).toEqual([]);
}

test('the bot shows progress within a second of a slow update (its typing threshold)', () => {
	expect(TYPING_AFTER_MS).toBeLessThanOrEqual(1000);
});

test('data: the price list, balance read and purchase each show a sign before the vendor answers', async () => {
	const app = await slowBot();
	const u = env.alice;
	// the price list: the catalogue (networks and their plans) is read from the vendor as /data starts
	const plans = await heldStep(app, u, ['GET', '/api/get/network/'], env.tg.textUpdate(u, '/data'), () => {
		return env.tg.findButton(u.id, 'MTN') === undefined;
	});
	expect(plans.sign).toBe('typing');
	expect(env.tg.lastText(u.id)).toBe(text('data-choose-network'));
	const netStart = env.tg.calls.length;
	await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
	expect(env.tg.lastText(u.id)).toBe(text('data-choose-plan', { network: 'MTN' }));
	typingStoppedBetween(u, plans.end, netStart);
	await env.send(app, env.tg.buttonUpdate(u, /^1GB SME /));

	// the balance read before Confirm
	const balance = await heldStep(app, u, ['GET', '/api/user/'], env.tg.textUpdate(u, '0803 123 4567'), () => {
		return env.tg.findButton(u.id, /^confirm:/) === undefined;
	});
	expect(balance.sign).toBe('typing');
	const to = '0803 123 4567 (MTN)'; // the confirm names the number's network; the outcome the number
	const gets = what('MTN data 1GB SME (30 days)', to);
	const item = what('MTN data 1GB SME (30 days)', '0803 123 4567');
	expect(env.tg.lastText(u.id)).toMatch(confirmPattern({ price: /₦[\d,.]+/, target: to, gets }));

	// the purchase: the Confirm message becomes "Sending…" before the vendor answers
	const confirmStart = env.tg.calls.length;
	const buy = await heldStep(app, u, ['POST', '/api/data/'], env.tg.buttonUpdate(u, /^confirm:/), () => {
		return !env.tg.textsTo(u.id).some((x) => new RegExp(`^${outcomeHead('successful', item)}`).test(x));
	});
	typingStoppedBetween(u, balance.end, confirmStart);
	expect(['typing', 'editMessageText']).toContain(buy.sign);
	const sending = env.tg.textsTo(u.id).find((x) => x.startsWith(text('confirm-sending', { what: item })))!;
	const ref = new RegExp(source('outcome-reference', { ref: /(\S+)/ })).exec(sending)![1];
	expect(env.tg.lastText(u.id)).toMatch(new RegExp(`^${outcomeHead('successful', item)}`));
	expect(env.tg.lastText(u.id)).toContain(text('outcome-reference', { ref }));
	expect(await env.debits()).toBe(1);

	// the next step's answer is in: nothing typed for the purchase after its outcome
	const next = env.tg.calls.length;
	await env.send(app, env.tg.textUpdate(u, '/help'));
	expect(env.tg.lastText(u.id)).toMatch(pattern('help-intro'));
	typingStoppedBetween(u, buy.end, next);

	// /balance while the vendor is slow to answer the balance: typing first, then the wallet
	const told = pattern('balance-text', { balance: /₦[\d,.]+/ });
	const wallet = await heldStep(app, u, ['GET', '/api/user/'], env.tg.textUpdate(u, '/balance'), () => {
		return !told.test(env.tg.lastText(u.id) ?? '');
	});
	expect(wallet.sign).toBe('typing');
	expect(env.tg.lastText(u.id)).toMatch(told);
});

test('cable and electricity: the IUC and meter checks show a sign before the vendor answers', async () => {
	const app = await slowBot();
	const u = env.bob;
	await env.send(app, env.tg.textUpdate(u, '/cable'));
	await env.send(app, env.tg.buttonUpdate(u, 'GOTV'));
	await env.send(app, env.tg.buttonUpdate(u, /^GOtv Jinja /));
	const prompt = new RegExp(source('cable-iuc-prompt', { provider: 'GOTV', min: /\d+/, max: /\d+/ }));
	expect(env.tg.lastText(u.id)).toMatch(prompt);
	const target = text('cable-target', { iuc: '7012345678', name: 'ADEBAYO OLUWASEUN' });
	const v = await heldStep(app, u, ['GET', '/api/validateiuc/'], env.tg.textUpdate(u, '7012345678'), () => {
		return !env.tg.textsTo(u.id).some((x) => x.includes(target));
	});
	expect(v.sign).toBe('typing');
	expect(env.tg.lastText(u.id)).toMatch(confirmPattern({ price: /₦[\d,.]+/, target, gets: /.+/ }));
	const next = env.tg.calls.length;
	await env.send(app, env.tg.buttonUpdate(u, /^cancel:/));
	expect(env.tg.lastText(u.id)).toMatch(new RegExp(`\\n${source('flow-cancelled')}$`));
	typingStoppedBetween(u, v.end, next);

	// electricity: the meter check, answered with the holder's name and address
	await env.send(app, env.tg.textUpdate(u, '/electricity'));
	await env.send(app, env.tg.buttonUpdate(u, 'Ikeja Electric'));
	await env.send(app, env.tg.buttonUpdate(u, text('meter-prepaid')));
	const holder = pattern('meter-holder-address', { meter: '45012345678', name: 'BOLA AHMED', address: /.+/ });
	const m = await heldStep(app, u, ['GET', '/api/validatemeter/'], env.tg.textUpdate(u, '45012345678'), () => {
		return !env.tg.textsTo(u.id).some((x) => holder.test(x));
	});
	expect(m.sign).toBe('typing');
	expect(env.tg.lastText(u.id)).toMatch(holder);
	const amount = env.tg.calls.length;
	await env.send(app, env.tg.textUpdate(u, '1000'));
	expect(env.tg.lastText(u.id)).toMatch(confirmPattern({ price: '₦1,000.00', target: /.+BOLA AHMED.+/, gets: /.+/ }));
	typingStoppedBetween(u, m.end, amount);
	expect(await env.debits()).toBe(0);
});

test('storefront: the price list, the offer (price and float) and the purchase each show a sign first', async () => {
	const s = await openShop(env, { client: slowClient() });
	const u = env.alice;
	const { account } = await s.start(u);
	await s.transfer(account, 500_000);
	await env.tg.waitForText(u.id, pattern('sf-payment-landed', { amount: '₦5,000.00', balance: '₦5,000.00' }));

	const list = await heldStep(s.app, u, ['GET', '/api/get/network/'], env.tg.textUpdate(u, '/data'), () => {
		return env.tg.findButton(u.id, 'MTN') === undefined;
	});
	expect(list.sign).toBe('typing');
	expect(env.tg.lastText(u.id)).toBe(text('data-choose-network'));
	const next = env.tg.calls.length;
	await env.send(s.app, env.tg.buttonUpdate(u, 'MTN'));
	await env.send(s.app, env.tg.buttonUpdate(u, /^1GB SME /));
	typingStoppedBetween(u, list.end, next);

	// the offer: the seller's price on the vendor's cost, and the vendor's float checked, before Confirm
	const offer = await heldStep(s.app, u, ['GET', '/api/user/'], env.tg.textUpdate(u, '0803 123 4567'), () => {
		return env.tg.findButton(u.id, /^pay:y$/) === undefined;
	});
	expect(offer.sign).toBe('typing');
	expect(env.tg.lastText(u.id)).toContain(text('sf-confirm-from-wallet', { price: '₦325.00' }));

	const tap = env.tg.calls.length;
	const buy = await heldStep(s.app, u, ['POST', '/api/data/'], env.tg.buttonUpdate(u, /^pay:y$/), () => {
		return env.tg
			.textsTo(u.id)
			.every((x) => !pattern('sf-receipt', { gets: /.+/, price: /.+/, ref: /.+/, balance: /.+/ }).test(x));
	});
	typingStoppedBetween(u, offer.end, tap);
	expect(['typing', 'editMessageText']).toContain(buy.sign);
	expect(env.tg.textsTo(u.id)).toContainEqual(expect.stringMatching(pattern('sf-sending', { gets: /.+/ })));
	expect(env.tg.lastText(u.id)).toMatch(
		pattern('sf-receipt', { gets: /.+/, price: '₦325.00', ref: /\S+/, balance: '₦4,675.00' }),
	);
	const after = env.tg.calls.length;
	await env.send(s.app, env.tg.textUpdate(u, '/balance'));
	expect(env.tg.lastText(u.id)).toBe(text('sf-balance', { balance: '₦4,675.00' }));
	typingStoppedBetween(u, buy.end, after);
	await s.balanced();
});

/** Confirm pressed with the vendor's purchase POST parked: a sign first, then the delivered outcome. */
async function heldPurchase(app: VtuBot, u: FakeUser, path: string, item: string): Promise<void> {
	const head = new RegExp(`^${outcomeHead('successful', item)}`);
	const buy = await heldStep(app, u, ['POST', path], env.tg.buttonUpdate(u, /^confirm:/), () => {
		return !env.tg.textsTo(u.id).some((x) => head.test(x));
	});
	expect(['typing', 'editMessageText']).toContain(buy.sign);
	expect(env.tg.lastText(u.id)).toMatch(head);
	// the next step's answer is in: nothing typed for the purchase after its outcome
	const next = env.tg.calls.length;
	await env.send(app, env.tg.textUpdate(u, '/help'));
	expect(env.tg.lastText(u.id)).toMatch(pattern('help-intro'));
	typingStoppedBetween(u, buy.end, next);
}

test('exam PINs, recharge cards and bulk SMS: each purchase shows a sign before the vendor answers', async () => {
	const app = await slowBot();
	const u = env.bob;
	const steps = async (updates: (string | RegExp)[]) => {
		for (const x of updates)
			await env.send(app, typeof x === 'string' ? env.tg.textUpdate(u, x) : env.tg.buttonUpdate(u, x));
	};

	// the flow's start reads the vendor wallet (none seen yet: the up-front check): a sign first
	const start = await heldStep(app, u, ['GET', '/api/user/'], env.tg.textUpdate(u, '/exampin'), () => {
		return env.tg.lastText(u.id) !== text('exam-choose');
	});
	expect(start.sign).toBe('typing');
	expect(env.tg.lastText(u.id)).toBe(text('exam-choose'));
	await steps([/^NECO /, /^1$/]);
	const exam = text('exam-description', { exam: 'NECO', n: 1 });
	expect(env.tg.lastText(u.id)).toMatch(confirmPattern({ price: /₦[\d,.]+/, gets: exam }));
	await heldPurchase(app, u, '/api/epin/', exam);

	await steps(['/cards', /^MTN$/, /^₦100\.00 card/, '2']);
	const cards = text('cards-description', { n: 2, card: text('cards-label', { network: 'MTN', face: '₦100.00' }) });
	expect(env.tg.lastText(u.id)).toMatch(confirmPattern({ price: /₦[\d,.]+/, gets: cards }));
	await heldPurchase(app, u, '/api/rechargepin/', cards);

	await steps(['/sms', 'SHOP', 'Ada 08031234567\nBola - 0805 123 4567', 'Shop opens at 8 tomorrow']);
	const two = text('sms-numbers', { n: 2 });
	const bulk = text('sms-description', { sender: 'SHOP', pages: text('sms-pages', { n: 1 }) });
	expect(env.tg.lastText(u.id)).toMatch(confirmPattern({ price: /₦[\d,.]+/, target: two, gets: what(bulk, two) }));
	await heldPurchase(app, u, '/api/sendsms/', what(bulk, two));
	expect(await env.debits()).toBe(3);
});
