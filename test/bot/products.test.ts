/**
 * Cable TV, electricity, exam PINs and recharge cards in the till, end to end: the fake Bot API ← bot →
 * real client → real sandbox over HTTP. The IUC and the meter are checked with the site and the customer's
 * name is in the confirm question; a number the site does not know (or bad input) is refused, asked again,
 * and buys nothing; the token is delivered and stays in /history; PINs come with a printable sheet (a file).
 */
import type { VtuBot } from '../../bot/bot';
import { clearCatalogCache } from '../../client/catalog';
import type { FakeUser } from './fake-telegram';
import { lastDocument, useBotEnv } from './harness';
import { confirmPattern, pattern, source, text, NAIRA } from './texts';
import { until } from '../until';

const env = useBotEnv();

async function confirmAndOutcome(app: VtuBot, u: FakeUser): Promise<string> {
	await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
	return env.tg.lastText(u.id)!;
}

describe('cable TV', () => {
	test('provider → package → wrong IUC refused (nothing bought) → the name before Confirm → paid', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await env.send(app, env.tg.textUpdate(u, '/cable'));
		expect(env.tg.lastText(u.id)).toBe(text('cable-choose-provider'));
		expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual(['GOTV', 'DSTV', 'STARTIME', text('btn-cancel')]);
		await env.send(app, env.tg.buttonUpdate(u, 'GOTV'));
		expect(env.tg.lastText(u.id)).toBe(text('cable-choose-package', { provider: 'GOTV' }));
		const pkg = env.tg.findButton(u.id, /^GOtv Jinja ₦[\d,]+\.\d\d$/)!.text; // the account's tier price
		const price = pkg.slice('GOtv Jinja '.length);
		await env.send(app, env.tg.buttonUpdate(u, pkg));
		const prompt = text('cable-iuc-prompt', { provider: 'GOTV', min: 8, max: 12 });
		expect(env.tg.lastText(u.id)).toBe(text('cable-package-chosen', { package: pkg, prompt }));

		// letters: the client's parser refuses it, said in the catalogue's words, and the question again
		await env.send(app, env.tg.textUpdate(u, '70123x5678'));
		const iuc = text('cable-iuc-what');
		expect(env.tg.lastText(u.id)).toBe(
			text('input-problem', {
				problem: text('account-digits', { what: iuc, min: 8, max: 12 }),
				hint: prompt,
			}),
		);
		expect(env.tg.lastText(u.id)!.endsWith(`\n${prompt}`)).toBe(true);
		// a number the site does not know: refused, nothing bought, asked again
		await env.send(app, env.tg.textUpdate(u, '7010000000'));
		expect(env.tg.lastText(u.id)).toBe(text('cable-iuc-unknown', { provider: 'GOTV', iuc: '7010000000' }));
		expect(await env.debits()).toBe(0);

		await env.send(app, env.tg.textUpdate(u, '701 234 5678'));
		const target = text('cable-target', { iuc: '7012345678', name: 'ADEBAYO OLUWASEUN' });
		const description = text('cable-description', { provider: 'GOTV', package: 'GOtv Jinja' });
		expect(env.tg.lastText(u.id)).toMatch(
			confirmPattern({ price, target, gets: text('recipient-to', { what: description, to: target }) }),
		);
		expect(await env.debits()).toBe(0);
		const outcome = await confirmAndOutcome(app, u);
		expect(outcome).toMatch(
			pattern('outcome-head', {
				icon: '✅',
				label: text('state-successful'),
				what: text('recipient-to', { what: description, to: '7012345678' }),
			}),
		);
		const ledger = await env.demoLedger();
		expect(ledger.filter((e) => e.kind === 'debit').map((e) => e.amountKobo)).toEqual([328_000]);
		const txns = await env.admin.transactions({ username: env.sb.demo.username, product: 'cable' });
		expect(txns.map((x) => x.recipient)).toEqual(['7012345678']);
		// "Buy again" leads to the same subscription, and the repeat guard asks first
		await env.send(app, env.tg.buttonUpdate(u, text('btn-buy-again')));
		expect(env.tg.lastText(u.id)).toMatch(
			pattern('repeat-question', {
				ago: /.+/,
				ref: /\S+/,
				gets: text('recipient-to', { what: description, to: '7012345678' }),
			}),
		);
		await env.send(app, env.tg.buttonUpdate(u, text('btn-repeat-no')));
		expect(await env.debits()).toBe(1);
	});
});

describe('electricity', () => {
	async function toMeter(app: VtuBot, u: FakeUser) {
		await env.send(app, env.tg.textUpdate(u, '/electricity'));
		expect(env.tg.lastText(u.id)).toBe(text('electricity-choose-disco'));
		await env.send(app, env.tg.buttonUpdate(u, 'Ikeja Electric'));
		expect(env.tg.lastText(u.id)).toBe(text('electricity-choose-type', { disco: 'Ikeja Electric' }));
		await env.send(app, env.tg.buttonUpdate(u, text('meter-prepaid')));
	}

	test('wrong meter refused, the name shown, the amount checked; the token delivered and kept in /history', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await toMeter(app, u);
		await env.send(app, env.tg.textUpdate(u, '45010000000'));
		expect(env.tg.lastText(u.id)).toBe(text('meter-unknown', { disco: 'Ikeja Electric', meter: '45010000000' }));
		await env.send(app, env.tg.textUpdate(u, '450'));
		const meterHint = text('meter-prompt', { disco: 'Ikeja Electric', min: 6, max: 13 });
		expect(env.tg.lastText(u.id)).toBe(
			text('input-problem', {
				problem: text('account-digits', { what: text('meter-what'), min: 6, max: 13 }),
				hint: meterHint,
			}),
		);
		expect(await env.debits()).toBe(0);

		await env.send(app, env.tg.textUpdate(u, '45012345678'));
		expect(env.tg.lastText(u.id)).toMatch(
			pattern('meter-holder-address', { meter: '45012345678', name: 'BOLA AHMED', address: /.+/ }),
		);
		await env.send(app, env.tg.textUpdate(u, '100'));
		expect(env.tg.lastText(u.id)).toMatch(pattern('electricity-too-small', { min: '₦500.00' }));
		await env.send(app, env.tg.textUpdate(u, '₦1,500'));
		// the client's parser: a plain number, said in the catalogue's words
		expect(env.tg.lastText(u.id)).toMatch(
			pattern('input-problem', { problem: text('input-amount-plain', { example: '1500' }), hint: /[^]+/ }),
		);
		await env.send(app, env.tg.textUpdate(u, '1500'));
		const target = text('meter-target', { meter: '45012345678', name: 'BOLA AHMED' });
		const description = text('electricity-description', {
			disco: 'Ikeja Electric',
			type: text('meter-prepaid'),
			amount: '₦1,500.00',
		});
		expect(env.tg.lastText(u.id)).toMatch(
			confirmPattern({ price: '₦1,500.00', target, gets: text('recipient-to', { what: description, to: target }) }),
		);
		const outcome = await confirmAndOutcome(app, u);
		const token = new RegExp(`\\n${source('delivered-token', { token: /([\d -]{16,})/ })}\\n`).exec(outcome)?.[1];
		expect(token).toBeDefined();
		const o = app.journal.recentForUser(u.id)[0];
		expect(o).toMatchObject({ state: 'successful', product: 'electricity', recipient: '45012345678' });
		expect((o.result as { details: { token: string } }).details.token).toBe(token);

		// /history keeps it in the list, and the order's details show it again
		await env.send(app, env.tg.textUpdate(u, '/history'));
		expect(env.tg.lastText(u.id)).toContain(text('history-token', { token: token! }));
		await env.send(app, env.tg.buttonUpdate(u, /^order:/));
		expect(env.tg.lastText(u.id)).toContain(text('delivered-token', { token: token! }));
		expect((await env.demoLedger()).filter((e) => e.kind === 'debit').map((e) => e.amountKobo)).toEqual([150_000]);
	});
});

describe('exam PINs and recharge cards', () => {
	test('exam PINs: exam → how many → confirm → the PINs in the chat and on a printable sheet', async () => {
		const app = await env.makeBot();
		const u = env.bob;
		await env.send(app, env.tg.textUpdate(u, '/exampin'));
		expect(env.tg.lastText(u.id)).toBe(text('exam-choose'));
		await env.send(app, env.tg.buttonUpdate(u, /^NECO /));
		expect(env.tg.lastText(u.id)).toBe(text('exam-how-many', { exam: 'NECO' }));
		expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual(['1', '2', '3', '4', '5', text('btn-cancel')]);
		await env.send(app, env.tg.buttonUpdate(u, '2'));
		const description = text('exam-description', { exam: 'NECO', n: 2 });
		expect(env.tg.lastText(u.id)).toMatch(confirmPattern({ price: NAIRA, gets: description }));
		const outcome = await confirmAndOutcome(app, u);
		const pins = (app.journal.recentForUser(u.id)[0].result as { details: { pins: string[] } }).details.pins;
		expect(pins).toHaveLength(2);
		for (const [i, pin] of pins.entries()) expect(outcome).toContain(text('delivered-pin', { n: i + 1, pin }));
		const sheet = lastDocument(env, u.id)!;
		expect(sheet.caption).toBe(text('sheet-caption'));
		for (const pin of pins) expect(sheet.content).toContain(`<p>${pin}</p>`);
		expect(await env.debits()).toBe(1);
	});

	test("exam PINs that settle later: the follower's update carries the PINs and the sheet", async () => {
		await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 100, finalStatus: 'successful' } });
		const app = await env.makeBot();
		const u = env.alice;
		await env.send(app, env.tg.textUpdate(u, '/exampin'));
		await env.send(app, env.tg.buttonUpdate(u, /^WAEC /));
		await env.send(app, env.tg.buttonUpdate(u, '1'));
		const first = await confirmAndOutcome(app, u);
		expect(first).toMatch(pattern('outcome-head', { icon: '⏳', label: text('state-pending'), what: /.+/ }));
		expect(lastDocument(env, u.id)).toBeUndefined();
		// tick the follower until the vendor's record has settled
		await until(async () => {
			await app.follower.tick();
			return app.journal.recentForUser(u.id)[0].state === 'successful';
		}, 'the pin order to settle');
		const pins = (app.journal.recentForUser(u.id)[0].result as { details: { pins: string[] } }).details.pins;
		expect(pins).toHaveLength(1);
		expect(env.tg.lastText(u.id)).toContain(text('delivered-pin', { n: 1, pin: pins[0] }));
		expect(lastDocument(env, u.id)!.content).toContain(`<p>${pins[0]}</p>`);
		expect(await env.debits()).toBe(1);
	});

	test('recharge cards: network → value → a typed count (bad ones refused) → PINs, the sheet file', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await env.send(app, env.tg.textUpdate(u, '/cards'));
		expect(env.tg.lastText(u.id)).toBe(text('cards-choose-network'));
		await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
		expect(env.tg.lastText(u.id)).toBe(text('cards-choose-value', { network: 'MTN' }));
		await env.send(app, env.tg.buttonUpdate(u, /^₦100\.00 card/));
		const hint = text('cards-how-many', { min: 1, max: 39 });
		for (const bad of ['three', '40', '0', '2.5']) {
			await env.send(app, env.tg.textUpdate(u, bad));
			expect(env.tg.lastText(u.id)).toBe(
				text('input-problem', { problem: text('input-quantity', { min: 1, max: 39 }), hint }),
			);
		}
		await env.send(app, env.tg.textUpdate(u, '3'));
		const description = text('cards-description', {
			n: 3,
			card: text('cards-label', { network: 'MTN', face: '₦100.00' }),
		});
		expect(env.tg.lastText(u.id)).toMatch(confirmPattern({ price: NAIRA, gets: description }));
		expect(await env.debits()).toBe(0);
		const outcome = await confirmAndOutcome(app, u);
		const cards = (app.journal.recentForUser(u.id)[0].result as { details: { cards: { pin: string }[] } }).details
			.cards;
		expect(cards).toHaveLength(3);
		for (const c of cards) expect(outcome).toContain(c.pin);
		const sheet = lastDocument(env, u.id)!;
		for (const c of cards) expect(sheet.content).toContain(`<p>${c.pin}</p>`);
		expect(sheet.content).toContain(description);
		expect(await env.debits()).toBe(1);
	});

	test('the new products are on the menu and in /help', async () => {
		const app = await env.makeBot();
		await env.send(app, env.tg.textUpdate(env.alice, '/start'));
		const labels = env.tg.buttons(env.alice.id).map((b) => b.text);
		for (const k of ['menu-cable', 'menu-electricity', 'menu-exampin', 'menu-cards']) expect(labels).toContain(text(k));
		await env.send(app, env.tg.buttonUpdate(env.alice, text('menu-electricity')));
		expect(env.tg.lastText(env.alice.id)).toBe(text('electricity-choose-disco'));
		await env.send(app, env.tg.textUpdate(env.alice, '/help'));
		for (const k of ['help-cable', 'help-electricity', 'help-exampin', 'help-cards'])
			expect(env.tg.lastText(env.alice.id)).toContain(text(k));
	});
});

describe('a step the site fails ends the flow with its reason and Try again, nothing bought', () => {
	const tryAgain = (place: string) => [text('btn-try-again'), `go:${place}`];

	test('the price list cannot be read (cable), then the site cannot check a meter (electricity)', async () => {
		clearCatalogCache(); // an earlier test's cable list would be served from the cache
		const app = await env.makeBot();
		const u = env.alice;
		const list = await env.admin.addFault({ endpoint: 'GET /api/get/cable/', kind: 'error_before' });
		await env.send(app, env.tg.textUpdate(u, '/cable'));
		expect(env.tg.lastText(u.id)!.startsWith(`${text('price-list-failed')}: `)).toBe(true);
		expect(env.tg.buttons(u.id).map((b) => [b.text, b.data])).toContainEqual(tryAgain('cable'));
		await env.admin.removeFault(list.id);

		await env.send(app, env.tg.textUpdate(u, '/electricity'));
		await env.send(app, env.tg.buttonUpdate(u, 'Ikeja Electric'));
		await env.send(app, env.tg.buttonUpdate(u, text('meter-prepaid')));
		await env.admin.addFault({ endpoint: '* /api/validatemeter/', kind: 'error_before' });
		await env.send(app, env.tg.textUpdate(u, '45012345678'));
		expect(env.tg.lastText(u.id)!.startsWith(`${text('account-check-failed')}: `)).toBe(true);
		expect(env.tg.buttons(u.id).map((b) => [b.text, b.data])).toContainEqual(tryAgain('electricity'));
		expect(await env.debits()).toBe(0);
	});
});
