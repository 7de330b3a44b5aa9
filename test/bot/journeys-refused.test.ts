/**
 * Journey: the vendor refuses a detail by name at the purchase itself (after Confirm), as a real site's
 * serializer does (400 `{"mobile_number": [...]}`: the sandbox's one-shot `refuse_field` fault; the validation
 * and the quote accepted it). Nothing was bought; "Try again" asks only that detail again, keeping the other
 * choices, and the confirm after it is a new order. The real bot over the local Bot API, the real sandbox over
 * HTTP: one refused purchase and one debit in all.
 */
import type { VtuBot } from '../../bot/bot';
import { naira } from '../../bot/orders';
import { classifyResponse } from '../../client/http';
import { PRODUCT_TABLE } from '../../bot/vtu';
import type { FakeUser } from './fake-telegram';
import { useBotEnv } from './harness';
import { openShop, type Shop } from './journeys-kit';
import { confirmPattern, handedOver, outcomeHead, pattern, source, text, what, NAIRA } from './texts';

const env = useBotEnv();
const REF = new RegExp(source('outcome-reference', { ref: /(\S+)/ }));
const FIRST = '0803 123 4567';
const SECOND = '0806 555 1234';
const SECOND2 = '0808 555 1234';
const PLAN = 'MTN data 1GB SME (30 days)';
const TRY_AGAIN = new RegExp(`^${source('btn-try-again')}$`);

/** One refusal of the number at the next data purchase, as the site's serializer words it. */
const refuseNumberOnce = () =>
	env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'refuse_field', field: 'mobile_number', count: 1 });

/** Walk a flow (a string is typed, a RegExp is a button tapped). */
async function walk(app: VtuBot, u: FakeUser, steps: (string | RegExp)[]): Promise<void> {
	for (const step of steps)
		await env.send(app, typeof step === 'string' ? env.tg.textUpdate(u, step) : env.tg.buttonUpdate(u, step));
}

/** The texts the bot sent or edited in this chat since `from` (an index into textsTo). */
const since = (u: FakeUser, from: number) => env.tg.textsTo(u.id).slice(from);

/** The purchases that reached the vendor, and what each did (the fault log says the refused one's). */
async function vendorSaw() {
	const log = await env.admin.faultLog();
	return { refused: log.map((e) => [e.kind, e.httpStatus, e.debitedKobo]), debits: await env.debits() };
}

test('till: the number refused at the purchase; Try again asks only the number, a new order buys', async () => {
	const app = await env.makeBot();
	const u = env.alice;
	await refuseNumberOnce();
	await walk(app, u, ['/data', /^MTN$/, /^1GB SME /, FIRST]);
	expect(env.tg.lastText(u.id)).toMatch(
		confirmPattern({ price: '₦250.00', target: `${FIRST} (MTN)`, gets: what(PLAN, `${FIRST} (MTN)`) }),
	);
	await walk(app, u, [/^confirm:/]);

	// the outcome: not charged, the number named as what was refused, and Try again under it
	const refusedOut = env.tg.lastText(u.id)!;
	expect(refusedOut).toMatch(new RegExp(`^${outcomeHead('not_charged', what(PLAN, FIRST))}\\n`));
	expect(refusedOut).toContain(`\n${text('err-refused-phone')}\n`);
	expect(refusedOut).toMatch(new RegExp(`${source('outcome-not-charged-note')}$`));
	const refusedRef = REF.exec(refusedOut)![1];
	expect(await vendorSaw()).toEqual({ refused: [['refuse_field', 400, 0]], debits: 0 });
	const [refused] = app.journal.recentForUser(u.id);
	expect(refused).toMatchObject({
		id: refusedRef,
		state: 'not_charged',
		errorCode: 'invalid_input',
		errorField: 'phone',
	});

	// Try again: only the number is asked (no network, no plan), naming the one refused
	const before = env.tg.textsTo(u.id).length;
	await walk(app, u, [TRY_AGAIN]);
	const asked = `${text('again-phone', { phone: FIRST, what: PLAN })}\n${text('phone-prompt', { network: 'MTN' })}`;
	expect(since(u, before)).toEqual([asked]);

	// the new number: the same network and plan, a new order to confirm
	await walk(app, u, [SECOND]);
	const question = env.tg.lastText(u.id)!;
	expect(question).toMatch(
		confirmPattern({ price: '₦250.00', target: `${SECOND} (MTN)`, gets: what(PLAN, `${SECOND} (MTN)`) }),
	);
	const newRef = REF.exec(question)![1];
	expect(newRef).not.toBe(refusedRef);
	await walk(app, u, [/^confirm:/]);
	expect(env.tg.lastText(u.id)).toMatch(new RegExp(`^${outcomeHead('successful', what(PLAN, SECOND))}`));

	// one refused purchase and one debit in all; the refused order stays recorded, not charged
	expect(await vendorSaw()).toEqual({ refused: [['refuse_field', 400, 0]], debits: 1 });
	const ledger = await env.demoLedger();
	expect(ledger.filter((e) => e.kind === 'debit').map((e) => e.amountKobo)).toEqual([25_000]);
	expect(app.journal.get(refusedRef)).toMatchObject({ state: 'not_charged', errorField: 'phone' });
	expect(app.journal.get(newRef)).toMatchObject({ state: 'successful', recipient: '08065551234' });
});

test('till: the vendor refuses the IUC at the purchase; Try again asks only the IUC, checked again', async () => {
	const app = await env.makeBot();
	const u = env.bob;
	await env.admin.addFault({
		endpoint: 'POST /api/cablesub/',
		kind: 'refuse_field',
		field: 'smart_card_number',
		count: 1,
	});
	await walk(app, u, ['/cable', /^GOTV$/, /^GOtv Jinja /, '7012345678', /^confirm:/]);
	const tv = text('cable-description', { provider: 'GOTV', package: 'GOtv Jinja' });
	expect(env.tg.lastText(u.id)).toContain(`\n${text('err-refused-iuc')}\n`);

	const before = env.tg.textsTo(u.id).length;
	await walk(app, u, [TRY_AGAIN]);
	const hint = text('cable-iuc-prompt', { provider: 'GOTV', ...PRODUCT_TABLE.cable.limits.iucDigits });
	expect(since(u, before)).toEqual([`${text('again-iuc', { iuc: '7012345678', what: tv })}\n${hint}`]);

	await walk(app, u, ['7012345679']);
	const question = env.tg.lastText(u.id)!;
	expect(question).toMatch(confirmPattern({ price: /₦[\d,]+\.\d\d/, target: /.*7012345679.*/, gets: /.+/ }));
	await walk(app, u, [/^confirm:/]);
	expect(env.tg.lastText(u.id)).toMatch(new RegExp(`^${outcomeHead('successful', what(tv, '7012345679'))}`));
	expect(await vendorSaw()).toEqual({ refused: [['refuse_field', 400, 0]], debits: 1 });
});

test('till: airtime, electricity, SMS refused at purchase: Try again asks only the number, meter, list', async () => {
	const app = await env.makeBot();
	const u = env.alice;
	const refuse = (endpoint: string, field: string) =>
		env.admin.addFault({ endpoint: `POST ${endpoint}`, kind: 'refuse_field', field, count: 1 });
	/** The purchase refused, Try again: the texts it sent (only the refused detail's question), then `retyped`. */
	async function again(steps: (string | RegExp)[], refused: string, retyped: string): Promise<string[]> {
		await walk(app, u, [...steps, /^confirm:/]);
		expect(env.tg.lastText(u.id)).toContain(`\n${text(refused)}\n`);
		const before = env.tg.textsTo(u.id).length;
		await walk(app, u, [TRY_AGAIN]);
		const asked = since(u, before);
		await walk(app, u, [retyped]);
		return asked;
	}
	/** The confirm question of the new order is on screen (the other choices kept): buy it. */
	async function buys(question: RegExp, item: string): Promise<void> {
		expect(env.tg.lastText(u.id)).toMatch(question);
		await walk(app, u, [/^confirm:/]);
		expect(env.tg.lastText(u.id)).toMatch(new RegExp(`^${outcomeHead('successful', item)}`));
	}

	await refuse('/api/topup/', 'mobile_number');
	const topup = text('airtime-description', { network: 'AIRTEL', amount: '₦500.00' });
	const airtimeAsked = await again(['/airtime', /^AIRTEL$/, /^₦500$/, '0802 123 4567'], 'err-refused-phone', SECOND2);
	const phoneAgain = text('again-phone', { phone: '0802 123 4567', what: topup });
	expect(airtimeAsked).toEqual([`${phoneAgain}\n${text('phone-prompt', { network: 'AIRTEL' })}`]);
	const airtimeGets = text('airtime-gets', { amount: '₦500.00', network: 'AIRTEL', phone: SECOND2 });
	await buys(confirmPattern({ price: NAIRA, target: /.+/, gets: airtimeGets }), what(topup, SECOND2));

	await refuse('/api/billpayment/', 'meter_number');
	const kind = text('meter-prepaid');
	const power = text('electricity-description', { disco: 'Ikeja Electric', type: kind, amount: '₦1,000.00' });
	const steps = ['/electricity', /^Ikeja Electric$/, new RegExp(`^${kind}$`), '45012345678', '1000'];
	const meterAsked = await again(steps, 'err-refused-meter', '45012345679');
	const digits = PRODUCT_TABLE.electricity.limits.meterDigits;
	const meterHint = text('meter-prompt', { disco: 'Ikeja Electric', ...digits });
	expect(meterAsked).toEqual([`${text('again-meter', { meter: '45012345678', what: power })}\n${meterHint}`]);
	const meter = text('meter-target', { meter: '45012345679', name: 'FATIMA DANJUMA' });
	await buys(confirmPattern({ price: '₦1,000.00', target: meter, gets: /.+/ }), what(power, '45012345679'));

	await refuse('/api/sendsms/', 'recetipient');
	const bulk = text('sms-description', { sender: 'SHOP', pages: text('sms-pages', { n: 1 }) });
	const smsSteps = ['/sms', 'SHOP', '08031234567', 'Shop opens at 8'];
	const listAsked = await again(smsSteps, 'err-refused-recipients', '0805 123 4567');
	expect(listAsked).toHaveLength(2);
	expect(listAsked[0]).toBe(text('again-recipients', { what: bulk }));
	expect(listAsked[1]).toMatch(pattern('sms-recipients-prompt', { max: /\d+/ }));
	const one = text('sms-numbers', { n: 1 });
	await buys(confirmPattern({ price: NAIRA, target: one, gets: what(bulk, one) }), what(bulk, one));

	// three refused purchases (nothing debited by them), three bought
	const log = await env.admin.faultLog();
	expect(log.map((e) => [e.request, e.httpStatus, e.debitedKobo])).toEqual([
		['POST /api/topup/', 400, 0],
		['POST /api/billpayment/', 400, 0],
		['POST /api/sendsms/', 400, 0],
	]);
	expect(await env.debits()).toBe(3);
	const states = app.journal.recentForUser(u.id, 10).map((o) => [o.product, o.state, o.errorField]);
	expect(states.reverse()).toEqual([
		['airtime', 'not_charged', 'phone'],
		['airtime', 'successful', null],
		['electricity', 'not_charged', 'meter'],
		['electricity', 'successful', null],
		['sms', 'not_charged', 'recipients'],
		['sms', 'successful', null],
	]);
});

test('storefront: the number refused at the purchase; the hold released once, Try again asks the number', async () => {
	const s = await openShop(env);
	const u = env.alice;
	const { account } = await s.start(u);
	await s.transfer(account, 2_000_000);
	await env.tg.waitForText(u.id, pattern('sf-payment-landed', { amount: '₦20,000.00', balance: '₦20,000.00' }));
	const price = naira(s.side.priceFor(25_000));
	await refuseNumberOnce();
	await walk(s.app, u, ['/data', /^MTN$/, /^1GB SME /, FIRST, /^pay:y$/]);

	// released (nothing bought), the number named, and Try again in the flow
	const refusedOut = env.tg.lastText(u.id)!;
	expect(refusedOut).toMatch(
		new RegExp(`^${source('sf-released-now', { price, balance: '₦20,000.00', gets: /.+/ })}\\n`),
	);
	expect(refusedOut).toContain(`\n${text('err-refused-phone')}\n`);
	expect((await s.side.books.walletBalance(String(u.id))).available).toBe(2_000_000);
	expect(await vendorSaw()).toEqual({ refused: [['refuse_field', 400, 0]], debits: 0 });

	const before = env.tg.textsTo(u.id).length;
	await walk(s.app, u, [TRY_AGAIN]);
	// the refusal keeps its text (its buttons used), then only the number is asked
	expect(since(u, before)).toEqual([refusedOut, text('phone-prompt', { network: 'MTN' })]);
	await walk(s.app, u, [SECOND]);
	expect(env.tg.lastText(u.id)).toMatch(confirmPattern({ price, target: `${SECOND} (MTN)`, gets: /.+/ }));
	await walk(s.app, u, [/^pay:y$/]);
	expect(env.tg.lastText(u.id)).toMatch(pattern('sf-receipt', { gets: /.+/, price, ref: /\S+/, balance: /.+/ }));

	// one debit at the vendor; the customer paid once: the refused order's hold released exactly once
	expect(await vendorSaw()).toEqual({ refused: [['refuse_field', 400, 0]], debits: 1 });
	expect((await s.side.books.walletBalance(String(u.id))).available).toBe(2_000_000 - s.side.priceFor(25_000));
	const db = s.side.books.db;
	const orders = await db.selectFrom('orders').select(['id', 'state']).orderBy('created_at').execute();
	expect(orders.map((o) => o.state)).toEqual(['released', 'settled']);
	const moves = await db.selectFrom('transfers').select('id').where('reference', '=', orders[0].id).execute();
	expect(moves.map((m) => m.id.split(':')[0]).sort()).toEqual(['hold', 'release']);
	await s.balanced();
});

/** The store's orders, oldest first: id, state, price. */
async function storeOrders(s: Shop) {
	const rows = await s.side.books.db
		.selectFrom('orders')
		.select(['id', 'state', 'price'])
		.orderBy('created_at')
		.execute();
	return rows.map((o) => ({ id: o.id, state: o.state, price: Number(o.price) }));
}

/** The ledger's moves of an order ("hold", "release", "settle", "cost"), sorted. */
async function movesOf(s: Shop, orderId: string): Promise<string[]> {
	const db = s.side.books.db;
	const rows = await db.selectFrom('transfers').select('id').where('reference', '=', orderId).execute();
	return rows.map((m) => m.id.split(':')[0]).sort();
}

test('storefront: airtime, cable, electricity, SMS refused at the purchase: asked again, then bought', async () => {
	const s = await openShop(env);
	const u = env.bob;
	const { account } = await s.start(u);
	await s.transfer(account, 2_000_000);
	await env.tg.waitForText(u.id, pattern('sf-payment-landed', { amount: '₦20,000.00', balance: '₦20,000.00' }));
	const wallet = async () => (await s.side.books.walletBalance(String(u.id))).available;
	const refuse = (endpoint: string, field: string) =>
		env.admin.addFault({ endpoint: `POST ${endpoint}`, kind: 'refuse_field', field, count: 1 });
	/** Refused at the purchase, the hold released; Try again: the texts it sent (the refused detail's question). */
	async function again(steps: (string | RegExp)[], refused: string, retyped: string): Promise<string[]> {
		const before = await wallet();
		await walk(s.app, u, [...steps, /^pay:y$/]);
		const out = env.tg.lastText(u.id)!;
		const released = source('sf-released-now', { price: NAIRA, balance: naira(before), gets: /.+/ });
		expect(out).toMatch(new RegExp(`^${released}\\n`));
		expect(out).toContain(`\n${text(refused)}\n`);
		expect(await wallet()).toBe(before);
		const from = env.tg.textsTo(u.id).length;
		await walk(s.app, u, [TRY_AGAIN]);
		const [kept, ...asked] = since(u, from);
		expect(kept).toBe(out); // the refusal keeps its text, its buttons used
		await walk(s.app, u, [retyped]);
		return asked;
	}
	/** The new order's question (the other choices kept, at the customer's price): paid, the receipt. */
	async function buys(question: RegExp, gets: string | RegExp): Promise<void> {
		expect(env.tg.lastText(u.id)).toMatch(question);
		await walk(s.app, u, [/^pay:y$/]);
		const { rest } = handedOver(env.tg.lastText(u.id)!);
		expect(rest).toMatch(pattern('sf-receipt', { gets, price: NAIRA, ref: /\S+/, balance: NAIRA }));
	}

	await refuse('/api/topup/', 'mobile_number');
	const airtimeAsked = await again(['/airtime', /^AIRTEL$/, /^₦500$/, '0802 123 4567'], 'err-refused-phone', SECOND2);
	expect(airtimeAsked).toEqual([text('phone-prompt', { network: 'AIRTEL' })]);
	const airtimeGets = text('airtime-gets', { amount: '₦500.00', network: 'AIRTEL', phone: SECOND2 });
	await buys(confirmPattern({ price: NAIRA, target: /.+/, gets: airtimeGets }), airtimeGets);

	// cable: the IUC asked again and checked with the site (a wrong one said so), the holder named
	await refuse('/api/cablesub/', 'smart_card_number');
	const tv = text('cable-description', { provider: 'GOTV', package: 'GOtv Jinja' });
	const iucAsked = await again(['/cable', /^GOTV$/, /^GOtv Jinja /, '7012345678'], 'err-refused-iuc', '7010000000');
	const hint = text('cable-iuc-prompt', { provider: 'GOTV', ...PRODUCT_TABLE.cable.limits.iucDigits });
	expect(iucAsked).toEqual([`${text('again-iuc', { iuc: '7012345678', what: tv })}\n${hint}`]);
	expect(env.tg.lastText(u.id)).toBe(text('cable-iuc-unknown', { provider: 'GOTV', iuc: '7010000000' }));
	await walk(s.app, u, ['7012345679']);
	const card = new RegExp(source('cable-target', { iuc: '7012345679', name: /[A-Z][A-Z ]+/ }));
	const tvGets = new RegExp(source('recipient-to', { what: tv, to: card }));
	await buys(confirmPattern({ price: NAIRA, target: card, gets: tvGets }), tvGets);

	// electricity: the meter asked again and checked, the holder named; the disco, type and amount kept
	await refuse('/api/billpayment/', 'meter_number');
	const kind = text('meter-prepaid');
	const power = text('electricity-description', { disco: 'Ikeja Electric', type: kind, amount: '₦1,000.00' });
	const steps = ['/electricity', /^Ikeja Electric$/, new RegExp(`^${kind}$`), '45012345678', '1000'];
	const meterAsked = await again(steps, 'err-refused-meter', '45012345679');
	const meterHint = text('meter-prompt', { disco: 'Ikeja Electric', ...PRODUCT_TABLE.electricity.limits.meterDigits });
	expect(meterAsked).toEqual([`${text('again-meter', { meter: '45012345678', what: power })}\n${meterHint}`]);
	const meter = text('meter-target', { meter: '45012345679', name: 'FATIMA DANJUMA' });
	const powerGets = what(power, meter);
	await buys(confirmPattern({ price: naira(s.side.priceFor(100_000)), target: meter, gets: powerGets }), powerGets);

	// SMS: the list asked again; the sender and the message kept
	await refuse('/api/sendsms/', 'recetipient');
	const bulk = text('sms-description', { sender: 'SHOP', pages: text('sms-pages', { n: 1 }) });
	const listAsked = await again(['/sms', 'SHOP', '08031234567', 'Shop opens at 8'], 'err-refused-recipients', FIRST);
	expect(listAsked).toHaveLength(1);
	expect(listAsked[0]).toMatch(pattern('sms-recipients-prompt', { max: /\d+/ }));
	const one = text('sms-numbers', { n: 1 });
	await buys(confirmPattern({ price: NAIRA, target: one, gets: what(bulk, one) }), what(bulk, one));

	// each refused order held then released once, each bought one held then settled once: paid once per product
	const orders = await storeOrders(s);
	expect(orders.map((o) => o.state)).toEqual(Array(4).fill(['released', 'settled']).flat());
	for (const o of orders)
		expect(await movesOf(s, o.id)).toEqual(o.state === 'released' ? ['hold', 'release'] : ['cost', 'hold', 'settle']);
	const paid = orders.filter((o) => o.state === 'settled').reduce((sum, o) => sum + o.price, 0);
	expect(await wallet()).toBe(2_000_000 - paid);
	const log = await env.admin.faultLog();
	expect(log.map((e) => [e.request, e.httpStatus, e.debitedKobo])).toEqual([
		['POST /api/topup/', 400, 0],
		['POST /api/cablesub/', 400, 0],
		['POST /api/billpayment/', 400, 0],
		['POST /api/sendsms/', 400, 0],
	]);
	expect(await env.debits()).toBe(4);
	await s.balanced();
});

/** The site's serializer refusing a plan by its id, as DRF words it: technical, never shown to a customer. */
const INVALID_PK = 'Invalid pk "7" - object does not exist.';

test('both modes: a refused detail worded technically by the vendor is never shown as it is', async () => {
	// the purchase refused over HTTP: 400 {"plan": ["Invalid pk ..."]}; the till's outcome and the storefront's
	// released order say the catalogue's words, not the vendor's
	const refusePlan = () =>
		env.admin.addFault({
			endpoint: 'POST /api/data/',
			kind: 'refuse_field',
			field: 'plan',
			message: INVALID_PK,
			count: 1,
		});
	const till = await env.makeBot();
	await refusePlan();
	await walk(till, env.alice, ['/data', /^MTN$/, /^1GB SME /, FIRST, /^confirm:/]);
	const tillOut = env.tg.lastText(env.alice.id)!;
	expect(tillOut).toContain(`\n${text('err-invalid-input')}\n`);

	const s = await openShop(env);
	const u = env.bob;
	const { account } = await s.start(u);
	await s.transfer(account, 500_000);
	await env.tg.waitForText(u.id, pattern('sf-payment-landed', { amount: '₦5,000.00', balance: '₦5,000.00' }));
	await refusePlan();
	await walk(s.app, u, ['/data', /^MTN$/, /^1GB SME /, FIRST, /^pay:y$/]);
	const sfOut = env.tg.lastText(u.id)!;
	expect(sfOut).toMatch(pattern('sf-released-now', { price: NAIRA, balance: '₦5,000.00', gets: /.+/ }));
	expect(sfOut).toContain(`\n${text('err-invalid-input')}\n`);
	for (const said of [...env.tg.textsTo(env.alice.id), ...env.tg.textsTo(u.id)])
		expect(said).not.toMatch(/Invalid pk|HTTP|[{}]/);
	expect(await env.debits()).toBe(0);
	await s.balanced();
});

test('storefront: a refusal before the order worded technically is said as the till says it', async () => {
	// the client's refusal of the order's details (invalid_input) carrying the site's raw answer
	const client = env.clientFor(env.sb.demo.token);
	const body = JSON.stringify({ plan: [INVALID_PK] });
	const refusal = classifyResponse('POST', '/api/data/', 400, { 'content-type': 'application/json' }, body);
	expect(refusal.message).toContain(INVALID_PK);
	const quote = client.quote.bind(client);
	client.quote = async (req) => {
		if (req.product === 'data') throw refusal;
		return quote(req);
	};
	const reason = text('err-invalid-input');

	const till = await env.makeBot({}, undefined, client);
	await walk(till, env.alice, ['/data', /^MTN$/, /^1GB SME /, FIRST]);
	const cannot = text('err-with-reason', { what: text('check-cannot-buy'), reason });
	expect(env.tg.lastText(env.alice.id)).toBe(text('check-nothing-bought', { text: cannot }));

	const s = await openShop(env, { client });
	const u = env.bob;
	const { account } = await s.start(u);
	await s.transfer(account, 500_000);
	await env.tg.waitForText(u.id, pattern('sf-payment-landed', { amount: '₦5,000.00', balance: '₦5,000.00' }));
	await walk(s.app, u, ['/data', /^MTN$/, /^1GB SME /, FIRST]);
	expect(env.tg.lastText(u.id)).toBe(text('err-with-reason', { what: text('sf-quote-failed'), reason }));
	for (const said of [...env.tg.textsTo(env.alice.id), ...env.tg.textsTo(u.id)])
		expect(said).not.toMatch(/Invalid pk|HTTP|[{}]/);
	expect(await s.side.books.walletBalance(String(u.id))).toMatchObject({ available: 500_000 });
});
