/**
 * Journey: the till (staff on the merchant wallet). One member of staff buys each product once through
 * the real bot (createBot over the local Bot API) from the real sandbox over HTTP: data, airtime, cable TV,
 * electricity, exam PINs, recharge cards and bulk SMS; each ends in its delivered outcome with its
 * reference, what it hands over (token, PINs with a sheet), and one debit on the vendor's ledger.
 */
import type { VtuBot } from '../../bot/bot';
import type { FakeUser } from './fake-telegram';
import { lastDocument, useBotEnv } from './harness';
import { confirmPattern, outcomeHead, source, text, what, NAIRA } from './texts';

const env = useBotEnv();
const REF = new RegExp(source('outcome-reference', { ref: /(\S+)/ }));

/** Walk a flow (a string is typed, a RegExp is a button tapped), check the question, Confirm; the outcome. */
async function till(app: VtuBot, u: FakeUser, steps: (string | RegExp)[], question: RegExp): Promise<string> {
	for (const step of steps)
		await env.send(app, typeof step === 'string' ? env.tg.textUpdate(u, step) : env.tg.buttonUpdate(u, step));
	expect(env.tg.lastText(u.id)).toMatch(question);
	await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
	const out = env.tg.lastText(u.id)!;
	// the reference the outcome shows is the order's own, as journalled
	expect(REF.exec(out)?.[1]).toBe(app.journal.recentForUser(u.id)[0].id);
	return out;
}

const delivered = (item: string | RegExp) => new RegExp(`^${outcomeHead('successful', item)}`);

test('staff buy data, airtime, cable TV and electricity once each; the token kept in /history', async () => {
	const app = await env.makeBot();
	const u = env.alice;
	const phone = '0803 123 4567';
	const dataGets = what('MTN data 1GB SME (30 days)', `${phone} (MTN)`);
	const data = await till(
		app,
		u,
		['/data', /^MTN$/, /^1GB SME /, phone],
		confirmPattern({ price: '₦250.00', target: `${phone} (MTN)`, gets: dataGets }),
	);
	expect(data).toMatch(delivered(what('MTN data 1GB SME (30 days)', phone)));

	const airtimeGets = text('airtime-gets', { amount: '₦500.00', network: 'AIRTEL', phone: '0802 123 4567' });
	const airtime = await till(
		app,
		u,
		['/airtime', /^AIRTEL$/, /^₦500$/, '0802 123 4567'],
		confirmPattern({ price: NAIRA, target: /.+/, gets: airtimeGets }),
	);
	expect(airtime).toMatch(delivered(/.*AIRTEL.*0802 123 4567.*/));

	const iuc = text('cable-target', { iuc: '7012345678', name: 'ADEBAYO OLUWASEUN' });
	const tv = text('cable-description', { provider: 'GOTV', package: 'GOtv Jinja' });
	const cableQ = confirmPattern({ price: NAIRA, target: iuc, gets: what(tv, iuc) });
	const cable = await till(app, u, ['/cable', /^GOTV$/, /^GOtv Jinja /, '7012345678'], cableQ);
	expect(cable).toMatch(delivered(what(tv, '7012345678')));

	const meter = text('meter-target', { meter: '45012345678', name: 'BOLA AHMED' });
	const kind = text('meter-prepaid');
	const power = text('electricity-description', { disco: 'Ikeja Electric', type: kind, amount: '₦1,000.00' });
	const powerQ = confirmPattern({ price: '₦1,000.00', target: meter, gets: what(power, meter) });
	const steps = ['/electricity', /^Ikeja Electric$/, new RegExp(`^${kind}$`), '45012345678', '1000'];
	const light = await till(app, u, steps, powerQ);
	expect(light).toMatch(delivered(what(power, '45012345678')));
	const token = new RegExp(`\\n${source('delivered-token', { token: /([\d -]{16,})/ })}\\n`).exec(light)![1];

	await env.send(app, env.tg.textUpdate(u, '/history'));
	const hist = env.tg.lastText(u.id)!;
	expect(hist.startsWith(text('history-title'))).toBe(true);
	expect(hist).toContain(text('history-token', { token }));
	expect(await env.debits()).toBe(4);
});

test('staff buy exam PINs, recharge cards and bulk SMS once each: PINs with their sheets, one SMS debit', async () => {
	const app = await env.makeBot();
	const u = env.bob;
	const exam = text('exam-description', { exam: 'NECO', n: 1 });
	const examOut = await till(app, u, ['/exampin', /^NECO /, /^1$/], confirmPattern({ price: NAIRA, gets: exam }));
	expect(examOut).toMatch(delivered(exam));
	const examPin = new RegExp(source('delivered-pin', { n: 1, pin: /(\d+)/ })).exec(examOut)![1];
	expect(lastDocument(env, u.id)).toEqual({
		content: expect.stringContaining(`<p>${examPin}</p>`),
		caption: text('sheet-caption'),
	});

	const cards = text('cards-description', { n: 2, card: text('cards-label', { network: 'MTN', face: '₦100.00' }) });
	const cardsOut = await till(
		app,
		u,
		['/cards', /^MTN$/, /^₦100\.00 card/, '2'],
		confirmPattern({ price: NAIRA, gets: cards }),
	);
	expect(cardsOut).toMatch(delivered(cards));
	const pins = [...cardsOut.matchAll(new RegExp(source('delivered-card', { n: /\d/, pin: /(\d+)/ }), 'gm'))].map(
		(m) => m[1],
	);
	expect(pins).toHaveLength(2);
	for (const pin of pins) expect(lastDocument(env, u.id)!.content).toContain(`<p>${pin}</p>`);

	const list = 'Ada 08031234567\nBola - 0805 123 4567';
	const two = text('sms-numbers', { n: 2 });
	const bulk = text('sms-description', { sender: 'SHOP', pages: text('sms-pages', { n: 1 }) });
	const smsQ = confirmPattern({ price: NAIRA, target: two, gets: what(bulk, two) });
	const sms = await till(app, u, ['/sms', 'SHOP', list, 'Shop opens at 8 tomorrow'], smsQ);
	expect(sms).toMatch(delivered(what(bulk, two)));
	const sent = await env.admin.transactions({ username: env.sb.demo.username, product: 'sms' });
	expect(sent).toHaveLength(1);
	expect(sent[0].recipient.split(',').sort()).toEqual(['2348031234567', '2348051234567']);
	// a message of two pages to two numbers
	const long = `Shop opens at 8 tomorrow. ${'All prices are down this week. '.repeat(5)}`;
	const bulk2 = text('sms-description', { sender: 'SHOP', pages: text('sms-pages', { n: 2 }) });
	await till(
		app,
		u,
		['/sms', 'SHOP', list, long],
		confirmPattern({ price: NAIRA, target: two, gets: what(bulk2, two) }),
	);
	expect(await env.debits()).toBe(4);
	// /history names each job by its sender, its numbers and (more than one) its pages
	await env.send(app, env.tg.textUpdate(u, '/history'));
	const hist = env.tg.lastText(u.id)!;
	expect(hist).toContain(`${text('history-sms', { sender: 'SHOP', numbers: two })}, `);
	const pages = text('sms-pages', { n: 2 });
	expect(hist).toContain(`${text('history-sms-pages', { sender: 'SHOP', numbers: two, pages })}, `);
});
