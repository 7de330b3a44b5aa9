/**
 * Journey: a storefront customer's first day. The real bot (createBot in storefront mode, over the local
 * Bot API), the real merchant sandbox and the Paystack payment sandbox over HTTP, the store on SQLite.
 * /start shows the account number and bank; a transfer lands through the provider's webhook and the
 * customer is told; then each product is bought from the wallet with a receipt: data, airtime, cable TV
 * (the IUC checked, the holder's name before Confirm), electricity (the meter checked, the token
 * prominent and kept in /history), exam PINs and recharge cards (the PINs and a printable sheet), bulk SMS
 * (the till's questions, at the price the owner set in chat). A vendor failure is refunded at once, a bulk
 * SMS the vendor failed given back once (a slow vendor in storefront mode: journeys-slow).
 */
import { percentOf } from '../../client/money';
import { naira } from '../../bot/orders';
import { PRODUCT_TABLE } from '../../bot/vtu';
import type { FakeUser } from './fake-telegram';
import { lastDocument, useBotEnv } from './harness';
import { openShop, type Shop } from './journeys-kit';
import { confirmPattern, handedOver, pattern, source, text, what, NAIRA, settledHistoryLines } from './texts';

const env = useBotEnv();

/** Walk a flow (a string is typed, a RegExp is a button tapped), then tap Pay; the flow's last text. */
async function buy(s: Shop, u: FakeUser, steps: (string | RegExp)[], check?: (confirm: string) => void) {
	for (const step of steps)
		await env.send(s.app, typeof step === 'string' ? env.tg.textUpdate(u, step) : env.tg.buttonUpdate(u, step));
	check?.(env.tg.lastText(u.id)!);
	await env.send(s.app, env.tg.buttonUpdate(u, /^pay:y$/));
	return env.tg.lastText(u.id)!;
}

const receipt = (gets: string | RegExp, price: string | RegExp = NAIRA) =>
	pattern('sf-receipt', { gets, price, ref: /\S+/, balance: NAIRA });
const wallet = async (s: Shop, u: FakeUser) => (await s.side.books.walletBalance(String(u.id))).available;

/** /start, fund ₦20,000 through the provider's webhook: the customer is told the money landed. */
async function funded(s: Shop, u: FakeUser): Promise<void> {
	const { account, said } = await s.start(u);
	expect(said).toMatch(pattern('sf-hello', { name: u.first_name }));
	expect(said).toMatch(new RegExp(source('sf-account', { account, bank: 'Sandbox Bank', balance: '₦0.00' })));
	await s.transfer(account, 2_000_000);
	await env.tg.waitForText(u.id, pattern('sf-payment-landed', { amount: '₦20,000.00', balance: '₦20,000.00' }));
	await env.send(s.app, env.tg.textUpdate(u, '/balance'));
	expect(env.tg.lastText(u.id)).toBe(text('sf-balance', { balance: '₦20,000.00' }));
}

test('fund by transfer, then data, airtime, cable and electricity from the wallet; the token in /history', async () => {
	const s = await openShop(env);
	const u = env.alice;
	await funded(s, u);

	const data = await buy(s, u, ['/data', /^MTN$/, /^1GB SME /, '0803 123 4567'], (c) =>
		expect(c).toMatch(confirmPattern({ price: naira(s.side.priceFor(25_000)), target: /.+/, gets: /.+/ })),
	);
	expect(data).toMatch(receipt(/MTN data 1GB SME \(30 days\).+/, naira(s.side.priceFor(25_000))));

	const airtime = await buy(s, u, ['/airtime', /^AIRTEL$/, /^₦500$/, '0802 123 4567']);
	const gets = text('airtime-gets', { amount: '₦500.00', network: 'AIRTEL', phone: '0802 123 4567' });
	expect(airtime).toMatch(receipt(gets));

	// cable: a wrong IUC is refused; the right one shows the holder's name in the question before Confirm
	await env.send(s.app, env.tg.textUpdate(u, '/cable'));
	await env.send(s.app, env.tg.buttonUpdate(u, 'GOTV'));
	await env.send(s.app, env.tg.buttonUpdate(u, /^GOtv Jinja /));
	await env.send(s.app, env.tg.textUpdate(u, '7010000000'));
	expect(env.tg.lastText(u.id)).toBe(text('cable-iuc-unknown', { provider: 'GOTV', iuc: '7010000000' }));
	const target = text('cable-target', { iuc: '7012345678', name: 'ADEBAYO OLUWASEUN' });
	const tv = text('recipient-to', {
		what: text('cable-description', { provider: 'GOTV', package: 'GOtv Jinja' }),
		to: target,
	});
	const cable = await buy(s, u, ['7012345678'], (c) =>
		expect(c).toMatch(confirmPattern({ price: NAIRA, target, gets: tv })),
	);
	expect(cable).toMatch(receipt(tv));

	// electricity: the meter checked and named before Confirm; the token on its own line of the receipt
	const meter = text('meter-target', { meter: '45012345678', name: 'BOLA AHMED' });
	const kind = text('meter-prepaid');
	const power = text('recipient-to', {
		what: text('electricity-description', { disco: 'Ikeja Electric', type: kind, amount: '₦1,000.00' }),
		to: meter,
	});
	const steps = ['/electricity', /^Ikeja Electric$/, new RegExp(`^${kind}$`), '45012345678', '1000'];
	const light = await buy(s, u, steps, (c) =>
		expect(c).toMatch(confirmPattern({ price: NAIRA, target: meter, gets: power })),
	);
	// the token right under the receipt's first line, as the till's outcome shows it
	const { handed, rest } = handedOver(light);
	expect(rest).toMatch(receipt(power, naira(s.side.priceFor(100_000))));
	expect(handed[0]).toMatch(new RegExp(`${source('delivered-token', { token: /[\d -]{16,}/ })}$`));
	const token = handed[0];

	await env.send(s.app, env.tg.textUpdate(u, '/history'));
	const hist = env.tg.lastText(u.id)!;
	expect(hist.startsWith(text('history-title'))).toBe(true);
	expect(hist.match(settledHistoryLines())).toHaveLength(4);
	expect(hist).toContain(token);
	expect(hist).toMatch(new RegExp(source('sf-history-payment', { date: /.+/, amount: '₦20,000.00', ref: /\S+/ })));
	const r = await s.balanced();
	expect(r.spent).toBe(2_000_000 - (await wallet(s, u)));
	expect(await env.debits()).toBe(4);
});

test('exam PINs and recharge cards from the wallet: the PINs in the receipt and a printable sheet', async () => {
	const s = await openShop(env);
	const u = env.bob;
	await funded(s, u);
	const exam = await buy(s, u, ['/exampin', /^NABTEB /, /^1$/]);
	expect(handedOver(exam).rest).toMatch(receipt(text('exam-description', { exam: 'NABTEB', n: 1 })));
	const examPin = new RegExp(source('delivered-pin', { n: 1, pin: /(\d+)/ })).exec(exam)![1];
	expect(lastDocument(env, u.id)).toEqual({
		content: expect.stringContaining(`<p>${examPin}</p>`),
		caption: text('sheet-caption'),
	});

	const cards = await buy(s, u, ['/cards', /^MTN$/, /^₦100\.00 card/, '2']);
	expect(handedOver(cards).rest).toMatch(receipt(/.+/));
	const pins = [...cards.matchAll(new RegExp(source('delivered-card', { n: /\d/, pin: /(\d+)/ }), 'gm'))].map(
		(m) => m[1],
	);
	expect(pins).toHaveLength(2);
	const sheet = lastDocument(env, u.id)!;
	for (const pin of pins) expect(sheet.content).toContain(`<p>${pin}</p>`);
	expect(env.tg.callsOf('sendDocument').filter((c) => Number(c.payload.chat_id) === u.id)).toHaveLength(2);
	await s.balanced();
});

test('the vendor fails the order: refunded at once, the wallet back, the books balanced', async () => {
	const s = await openShop(env);
	const u = env.alice;
	await funded(s, u);
	await env.admin.setConfig({ settle: { mode: 'immediate', delayMs: 0, finalStatus: 'failed' } });
	const told = await buy(s, u, ['/data', /^MTN$/, /^1GB SME /, '0803 123 4567']);
	expect(told).toMatch(pattern('sf-refunded-now', { gets: /.+/, price: NAIRA, balance: '₦20,000.00' }));
	expect(await wallet(s, u)).toBe(2_000_000);
	const refunds = await s.side.books.db.selectFrom('transfers').selectAll().where('reason', '=', 'refund').execute();
	expect(refunds).toHaveLength(1);
	const r = await s.balanced();
	expect([r.spent, r.refunded]).toEqual([refunds[0].amount, refunds[0].amount]);
});

/** The SMS questions up to the summary: sender, the list (pasted, or a file: [name, content]), the message. */
async function smsSummary(s: Shop, u: FakeUser, start: string, list: string | [string, string], message: string) {
	const update = start.startsWith('/') ? env.tg.textUpdate(u, start) : env.tg.buttonUpdate(u, start);
	await env.send(s.app, update);
	expect(env.tg.lastText(u.id)).toBe(text('sms-sender-prompt', { max: PRODUCT_TABLE.sms.limits.senderChars }));
	await env.send(s.app, env.tg.textUpdate(u, 'SHOP'));
	await env.send(s.app, typeof list === 'string' ? env.tg.textUpdate(u, list) : env.tg.documentUpdate(u, ...list));
	const asked = env.tg.textsTo(u.id);
	expect(asked[asked.length - 1]).toBe(text('sms-message-prompt'));
	const report = asked[asked.length - 2];
	await env.send(s.app, env.tg.textUpdate(u, message));
	const said = env.tg.textsTo(u.id);
	return { report, summary: said[said.length - 2], confirm: said[said.length - 1] };
}

test("bulk SMS from the wallet at the owner's price: a pasted contact list, the receipt, the ledger", async () => {
	const s = await openShop(env);
	const u = env.alice;
	await funded(s, u);
	const perPage = (await env.client.catalog.get()).sms.perPage.kobo;

	// the owner sets ₦1 a page per number and sees the margins; /prices lists SMS at that price
	await env.send(s.app, env.tg.textUpdate(env.admin1, '/setprice sms ₦1'));
	const set = env.tg.lastText(env.admin1.id)!;
	const markup = text('setprice-per-page', { amount: '₦1.00' });
	expect(set).toMatch(pattern('setprice-set', { rule: 'sms (regular)', markup }));
	const one = text('prices-sms-item', { numbers: text('sms-numbers', { n: 1 }) });
	const margin = { name: one, cost: naira(perPage), price: naira(perPage + 100), margin: '₦1.00' };
	expect(set).toContain(text('setprice-margin', margin));
	await env.send(s.app, env.tg.textUpdate(u, '/prices'));
	const list = env.tg.lastText(u.id)!;
	expect(list).toContain(
		`${text('prices-section-sms')}\n${text('prices-line', { name: one, price: naira(perPage + 100) })}`,
	);
	const hundred = text('prices-sms-item', { numbers: text('sms-numbers', { n: 100 }) });
	expect(list).toContain(text('prices-line', { name: hundred, price: naira(100 * (perPage + 100)) }));

	// more than 500 numbers: said when the list is given, and the list asked again
	await env.send(s.app, env.tg.textUpdate(u, '/sms'));
	await env.send(s.app, env.tg.textUpdate(u, 'SHOP'));
	const many = Array.from({ length: 501 }, (_, i) => `0803${String(1_000_000 + i)}`).join('\n');
	await env.send(s.app, env.tg.textUpdate(u, many));
	expect(env.tg.lastText(u.id)).toBe(text('sms-too-many-now', { n: 501, max: 500 }));
	await env.send(s.app, env.tg.textUpdate(u, '/cancel'));

	// a pasted contact list: names and separators understood, a toll-free number left out, a repeat used once
	const contacts = 'Ada 08031234567\nBola - 0805 123 4567\nChi: +234 809 123 4567\nHelpline 0800 123 4567\n08031234567';
	await env.send(s.app, env.tg.textUpdate(u, '/start')); // the main menu, whose button starts it
	const job = await smsSummary(s, u, text('menu-sms'), contacts, 'Shop opens at 8 tomorrow');
	expect(job.report).toContain(text('sms-found', { numbers: text('sms-numbers', { n: 3 }) }));
	expect(job.report).toContain(text('sms-count-up', { entries: 5, used: 3, duplicates: 1, left: 1 }));
	expect(job.report).toContain(text('sms-reason-toll-free'));
	const price = naira(3 * (perPage + 100)); // 3 numbers × 1 page × (the vendor's rate + ₦1)
	expect(job.summary).toContain(text('sms-summary-price', { price }));
	expect(job.summary).not.toContain(naira(3 * perPage));
	const three = text('sms-numbers', { n: 3 });
	const gets = what(text('sms-description', { sender: 'SHOP', pages: text('sms-pages', { n: 1 }) }), three);
	expect(job.confirm).toMatch(confirmPattern({ price, target: three, gets }));
	await env.send(s.app, env.tg.buttonUpdate(u, /^pay:y$/));
	const done = env.tg.lastText(u.id)!;
	expect(done).toMatch(receipt(gets, price));
	const ref = new RegExp(source('sf-receipt', { gets, price, ref: /(\S+)/, balance: NAIRA })).exec(done)![1];

	// debited exactly the price shown, in the ledger; the vendor sent one job to the three numbers
	expect(await wallet(s, u)).toBe(2_000_000 - 3 * (perPage + 100));
	const order = await s.side.books.db.selectFrom('orders').selectAll().where('id', '=', ref).executeTakeFirstOrThrow();
	expect([order.state, Number(order.price), Number(order.cost)]).toEqual(['settled', 3 * (perPage + 100), 3 * perPage]);
	const spent = await s.side.books.db.selectFrom('transfers').selectAll().where('reason', '=', 'settle').execute();
	expect(spent.map((x) => Number(x.amount))).toEqual([3 * (perPage + 100)]);
	const sent = await env.admin.transactions({ username: env.sb.demo.username, product: 'sms' });
	expect(sent).toHaveLength(1);
	expect(sent[0].recipient.split(',').sort()).toEqual(['2348031234567', '2348051234567', '2348091234567']);
	// /history names the job by its sender and numbers
	await env.send(s.app, env.tg.textUpdate(u, '/history'));
	expect(env.tg.lastText(u.id)).toContain(`${text('history-sms', { sender: 'SHOP', numbers: three })}, ${price}`);
	await s.balanced();
});

test('bulk SMS from a .csv file that the vendor fails: the money comes back once, the wallet whole', async () => {
	const s = await openShop(env);
	const u = env.bob;
	await funded(s, u);
	await env.admin.addFault({ endpoint: 'POST /api/sendsms/', kind: 'error_before', count: 1 });
	const csv = 'name,phone\nAda,08031234567\nBola,0805 123 4567\n';
	const job = await smsSummary(s, u, '/sms', ['contacts.csv', csv], 'Hello from the shop ✨');
	const column = text('sms-column-named', { name: 'phone' });
	expect(job.report).toBe(text('sms-found-column', { numbers: text('sms-numbers', { n: 2 }), column }));
	const price = naira(s.side.priceFor(2 * (await env.client.catalog.get()).sms.perPage.kobo)); // the fallback
	expect(job.summary).toContain(text('sms-summary-price', { price }));
	// the till's warning: a character outside plain SMS text
	const length = { characters: text('sms-characters', { n: 21 }), pages: text('sms-pages', { n: 1 }) };
	expect(job.summary).toContain(text('sms-summary-unicode', { chars: '✨', ...length }));
	await env.send(s.app, env.tg.buttonUpdate(u, /^pay:y$/));
	expect(env.tg.lastText(u.id)).toMatch(pattern('sf-released-now', { gets: /.+/, balance: '₦20,000.00' }));
	expect(await wallet(s, u)).toBe(2_000_000);
	const back = await s.side.books.db.selectFrom('transfers').selectAll().where('reason', '=', 'release').execute();
	expect(back).toHaveLength(1);
	expect(await env.admin.transactions({ username: env.sb.demo.username, product: 'sms' })).toHaveLength(0);
	await s.balanced();
});

test('amounts: the prompts show what the wallet pays at the customer price; above it, told why', async () => {
	const s = await openShop(env);
	const u = env.bob;
	const { account } = await s.start(u);
	await s.transfer(account, 473_750);
	await env.tg.waitForText(u.id, pattern('sf-payment-landed', { amount: '₦4,737.50', balance: '₦4,737.50' }));
	const send = async (steps: (string | RegExp)[]) => {
		for (const x of steps)
			await env.send(s.app, typeof x === 'string' ? env.tg.textUpdate(u, x) : env.tg.buttonUpdate(u, x));
	};
	/** The largest whole-naira face value whose price (the store's markup on its cost) the wallet pays. */
	const most = (cost: (face: number) => number) => {
		let n = 4737;
		while (s.side.priceFor(cost(n * 100)) > 473_750) n--;
		return n * 100;
	};

	const power = most((face) => face);
	await send(['/electricity', /^Ikeja Electric$/, new RegExp(`^${text('meter-prepaid')}$`), '45012345678']);
	const min = naira(PRODUCT_TABLE.electricity.limits.minKobo);
	expect(env.tg.lastText(u.id)).toContain(text('sf-electricity-amount-prompt', { min, max: naira(power) }));
	await send([String(power / 100 + 1)]);
	expect(env.tg.lastText(u.id)).toContain(text('sf-amount-over-wallet', { max: naira(power) }));
	await send([String(power / 100)]);
	expect(env.tg.lastText(u.id)).toContain(text('sf-confirm-from-wallet', { price: naira(s.side.priceFor(power)) }));
	await send(['/cancel']);

	const pct = (await env.client.catalog.get()).airtime.find((a) => a.network === 'AIRTEL')!.vtuPercent;
	const top = most((face) => percentOf(face, pct));
	await send(['/airtime', /^AIRTEL$/]);
	const low = naira(PRODUCT_TABLE.airtime.limits.minKobo.VTU).replace('.00', '');
	expect(env.tg.lastText(u.id)).toBe(
		text('sf-airtime-amount-question', { network: 'AIRTEL', min: low, max: naira(top) }),
	);
	await send([String(top / 100 + 1)]);
	expect(env.tg.lastText(u.id)).toBe(text('sf-amount-over-wallet', { max: naira(top) }));
	await send(['/cancel']);
	expect(await wallet(s, u)).toBe(473_750);
	await s.balanced();
});
