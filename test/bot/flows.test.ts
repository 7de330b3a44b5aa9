/** Purchase flows end to end: fake Bot API ← bot → real client → real sandbox (HTTP). */
import { dataToConfirm, useBotEnv } from './harness';
import { confirmPattern, confirmText, lines, pattern, source, text, what } from './texts';

const env = useBotEnv();

describe('menus and reading', () => {
	test('/start shows the main menu; commands were registered at start-up', async () => {
		const app = await env.makeBot();
		const cmds = env.tg.callsOf('setMyCommands');
		expect(cmds[0].payload.commands.map((c: any) => c.command)).toEqual(
			expect.arrayContaining([
				'start',
				'balance',
				'data',
				'airtime',
				'cable',
				'electricity',
				'exampin',
				'cards',
				'sms',
				'history',
				'status',
				'cancel',
				'help',
			]),
		);
		// Admin commands only in the admin's chat scope.
		expect(
			cmds.some(
				(c) => c.payload.scope?.chat_id === env.admin1.id && c.payload.commands.some((x: any) => x.command === 'allow'),
			),
		).toBe(true);
		await env.send(app, env.tg.textUpdate(env.alice, '/start'));
		expect(env.tg.lastText(env.alice.id)).toBe('Hello Alice! What would you like to do?');
		expect(env.tg.buttons(env.alice.id).map((b) => b.text)).toEqual([
			'📶 Buy data',
			'📞 Airtime',
			'📺 Cable TV',
			'💡 Electricity',
			'🎓 Exam PINs',
			'🎫 Recharge cards',
			'✉️ Bulk SMS',
			'💰 Balance',
			'🧾 History',
			'❓ Help',
		]);
	});

	test('/balance, and Balance from the menu', async () => {
		const app = await env.makeBot();
		await env.send(app, env.tg.textUpdate(env.alice, '/balance'));
		expect(env.tg.lastText(env.alice.id)).toBe('💰 Wallet balance: ₦1,000,000.00');
		expect(
			env.tg
				.buttons(env.alice.id)
				.slice(-1)
				.map((b) => b.text),
		).toEqual(['🏠 Menu']);
		await env.admin.fund(env.sb.demo.username, '250.50');
		await env.send(app, env.tg.textUpdate(env.alice, '/start'));
		await env.send(app, env.tg.buttonUpdate(env.alice, '💰 Balance'));
		expect(env.tg.lastText(env.alice.id)).toBe('💰 Wallet balance: ₦1,000,250.50');
		// the site cannot be read: why, in the user's words, and the Menu button
		await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'error_before' });
		await env.send(app, env.tg.textUpdate(env.alice, '/balance'));
		expect(env.tg.lastText(env.alice.id)!.startsWith(`${text('balance-failed')}: `)).toBe(true);
		expect(env.tg.buttons(env.alice.id).slice(-1)[0].text).toBe(text('btn-menu'));
	});

	test('/help states the limits', async () => {
		const app = await env.makeBot();
		await env.send(app, env.tg.textUpdate(env.alice, '/help'));
		expect(env.tg.lastText(env.alice.id)).toMatch(
			/Limits: ₦5,000.00 per purchase, ₦20,000.00 per day \(₦20,000.00 left today\)/,
		);
	});
});

describe('/data', () => {
	test('network → plans → phone → confirm → "Sending…" edited into the outcome; one debit', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await env.send(app, env.tg.textUpdate(u, '/data'));
		expect(env.tg.lastText(u.id)).toBe(text('data-choose-network'));
		expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual(
			expect.arrayContaining(['MTN', 'GLO', 'AIRTEL', '9MOBILE', 'Cancel']),
		);
		await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
		expect(env.tg.lastText(u.id)).toBe(text('data-choose-plan', { network: 'MTN' }));
		expect(env.tg.buttons(u.id).map((b) => b.text)).toContain('1GB SME ₦250.00 (30 days)');
		await env.send(app, env.tg.buttonUpdate(u, '1GB SME ₦250.00 (30 days)'));
		expect(env.tg.lastText(u.id)).toBe(
			text('data-plan-chosen', {
				network: 'MTN',
				plan: '1GB SME ₦250.00 (30 days)',
				prompt: text('phone-prompt', { network: 'MTN' }),
			}),
		); // the plan message, edited
		await env.send(app, env.tg.textUpdate(u, '+234 803 123 4567'));
		const target = text('phone-target', { phone: '0803 123 4567', network: 'MTN' });
		expect(env.tg.lastText(u.id)).toBe(
			confirmText({
				price: '₦250.00',
				target,
				gets: what('MTN data 1GB SME (30 days)', target),
				walletAfter: '₦999,750.00',
				ref: env.tg.findButton(u.id, /^confirm:/)!.data.slice('confirm:'.length),
			}),
		);
		expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual([
			text('btn-confirm-pay', { price: '₦250.00' }),
			text('btn-confirm-cancel'),
		]);
		expect(await env.debits()).toBe(0); // nothing spent before the confirm
		const confirmMsg = env.tg.findButton(u.id, /^confirm:/)!.messageId;
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.answers()).toContain(text('confirm-confirmed'));
		// The confirm message itself becomes "Sending…", then the result: no new message for either.
		const edits = env.tg
			.callsOf('editMessageText')
			.filter((c) => c.payload.message_id === confirmMsg)
			.map((c) => String(c.payload.text));
		const bought = what('MTN data 1GB SME (30 days)', '0803 123 4567');
		const o = app.journal.recentForUser(u.id)[0];
		// One reference from "Sending…" to the result: the order's.
		expect(edits[0]).toBe(`${text('confirm-sending', { what: bought })}\n${text('outcome-reference', { ref: o.id })}`);
		const result = edits[1];
		expect(edits).toHaveLength(2);
		expect(env.tg.lastText(u.id)).toBe(result);
		const delivered = lines(
			['outcome-head', { icon: '✅', label: text('state-successful'), what: bought }],
			['outcome-charged', { charged: '₦250.00' }],
			['outcome-reference', { ref: /(\S+)/ }],
			['outcome-balance', { balance: '₦999,750.00' }],
		);
		expect(result).toMatch(new RegExp(`${delivered.source}$`));
		expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual([text('btn-buy-again'), text('btn-menu')]);
		expect(delivered.exec(result)![1]).toBe(o.id);

		const ledger = await env.demoLedger();
		const ident = app.journal.get(o.id)!.ident;
		expect(ledger.filter((e) => e.kind === 'debit')).toEqual([{ kind: 'debit', amountKobo: 25000, ident }]);
		const txns = await env.admin.transactions({ username: env.sb.demo.username, product: 'data' });
		expect(txns).toHaveLength(1);
		expect(txns[0].recipient).toBe('08031234567');

		// Journal: final and told.
		expect(o).toMatchObject({ state: 'successful', ident, chargedKobo: 25000, notifiedState: 'successful' });

		await env.send(app, env.tg.textUpdate(u, `/status ${ident}`));
		expect(env.tg.lastText(u.id)).toMatch(
			new RegExp(
				`${source('order-title', { product: text('product-data'), date: /.*/ })}\n` +
					source('outcome-head', { icon: '✅', label: text('state-successful'), what: bought }),
			),
		);
		expect(
			env.tg
				.buttons(u.id)
				.slice(-2)
				.map((b) => b.text),
		).toEqual([text('btn-buy-again'), text('btn-menu')]);
	});

	test('invalid phone is asked again; a number of another network offers the ported option', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await env.send(app, env.tg.textUpdate(u, '/data'));
		await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
		await env.send(app, env.tg.buttonUpdate(u, /^1GB SME /));
		await env.send(app, env.tg.textUpdate(u, '12345'));
		// the client's rule (the same as the nodes and SMS), in the catalogue's words
		expect(env.tg.lastText(u.id)).toBe(text('phone-invalid-why', { problem: text('phone-problem-length') }));
		await env.send(app, env.tg.textUpdate(u, '0803 ABC 4567'));
		expect(env.tg.lastText(u.id)).toBe(text('phone-invalid-why', { problem: text('phone-problem-letters') }));
		await env.send(app, env.tg.textUpdate(u, '08051234567')); // GLO prefix
		expect(env.tg.lastText(u.id)).toBe(
			text('ported-question', { phone: '0805 123 4567', detected: 'GLO', network: 'MTN' }),
		);
		await env.send(app, env.tg.buttonUpdate(u, 'ported:n'));
		await env.send(app, env.tg.textUpdate(u, '08051234567'));
		await env.send(app, env.tg.buttonUpdate(u, 'ported:y'));
		const ported = text('phone-target-ported', { phone: '0805 123 4567', network: 'MTN' });
		expect(env.tg.lastText(u.id)).toMatch(
			confirmPattern({ price: '₦250.00', target: ported, gets: what('MTN data 1GB SME (30 days)', ported) }),
		);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toMatch(/^✅ Delivered/);
		expect(await env.debits()).toBe(1);
	});

	test('Cancel on the confirm: nothing bought, order cancelled, a Menu button as the next step', async () => {
		const app = await env.makeBot();
		await dataToConfirm(env, app, env.alice);
		await env.send(app, env.tg.buttonUpdate(env.alice, /^cancel:/));
		expect(env.tg.lastText(env.alice.id)).toMatch(new RegExp(`${source('flow-cancelled')}$`));
		expect(env.tg.buttons(env.alice.id).slice(-1)[0].text).toBe(text('btn-menu'));
		expect(await env.debits()).toBe(0);
		expect(app.journal.recentForUser(env.alice.id)[0].state).toBe('cancelled');
	});
});

describe('/airtime', () => {
	test('quick and typed amounts (2 decimals at most); confirm says what is paid and got; one debit', async () => {
		const app = await env.makeBot();
		const u = env.bob;
		await env.send(app, env.tg.textUpdate(u, '/airtime'));
		await env.send(app, env.tg.buttonUpdate(u, 'AIRTEL'));
		expect(env.tg.lastText(u.id)).toBe(text('airtime-amount-question', { network: 'AIRTEL', min: '₦50' }));
		const quick = ['₦100', '₦200', '₦500', '₦1,000'];
		expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual([...quick, text('btn-cancel')]);
		const said: Record<string, string> = {
			'20': text('airtime-too-small', { min: '₦50.00' }),
			// the client's parser of amounts: what a client call or a node would refuse, said in the catalogue's words
			'200.555': text('input-amount-decimals', { example: '200.55' }),
			'-200': text('input-amount-negative'),
			'two hundred': text('input-amount'),
			'₦1,000,000': text('input-amount-plain', { example: '1000000' }),
			'12345678901234': text('input-amount-too-large'),
			'1000000': text('airtime-over-limit', { limit: '₦5,000.00' }),
		};
		for (const [typed, answer] of Object.entries(said)) {
			await env.send(app, env.tg.textUpdate(u, typed));
			expect(env.tg.lastText(u.id)).toBe(answer);
		}
		await env.send(app, env.tg.buttonUpdate(u, '₦500'));
		expect(env.tg.lastText(u.id)).toBe(text('phone-prompt', { network: 'AIRTEL' }));
		await env.send(app, env.tg.textUpdate(u, '0802 123 4567'));
		const quoted = await env.client.quote({
			product: 'airtime',
			network: 'AIRTEL',
			amount: '500',
			phone: '08021234567',
			type: 'VTU',
		});
		expect(quoted.amount.kobo).toBeLessThan(50_000); // the site's discount: the two amounts differ
		expect(env.tg.lastText(u.id)).toBe(
			confirmText({
				price: `₦${quoted.amount.naira}`,
				target: text('phone-target', { phone: '0802 123 4567', network: 'AIRTEL' }),
				gets: text('airtime-gets', { amount: '₦500.00', network: 'AIRTEL', phone: '0802 123 4567' }),
				note: text('airtime-pay-note', { amount: '₦500.00' }),
				walletAfter: `₦${(1_000_000 - quoted.amount.kobo / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
				ref: env.tg.findButton(u.id, /^confirm:/)!.data.slice('confirm:'.length),
			}),
		);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toMatch(
			pattern('outcome-head', {
				icon: '✅',
				label: text('state-successful'),
				what: what('AIRTEL airtime ₦500.00', '0802 123 4567'),
			}),
		);
		const debits = (await env.demoLedger()).filter((e) => e.kind === 'debit');
		expect(debits.map((d) => d.amountKobo)).toEqual([quoted.amount.kobo]);
	});

	test('a typed amount takes the quick-amount buttons away', async () => {
		const app = await env.makeBot();
		const u = env.bob;
		await env.send(app, env.tg.textUpdate(u, '/airtime'));
		await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
		await env.send(app, env.tg.textUpdate(u, '150.50'));
		expect(env.tg.buttons(u.id)).toEqual([]);
		await env.send(app, env.tg.textUpdate(u, '08031234567'));
		const target = text('phone-target', { phone: '0803 123 4567', network: 'MTN' });
		expect(env.tg.lastText(u.id)).toMatch(
			confirmPattern({
				price: /₦[\d,.]+/,
				target,
				gets: text('airtime-gets', { amount: '₦150.50', network: 'MTN', phone: '0803 123 4567' }),
			}),
		);
	});
});

describe('/sms', () => {
	test('a name,phone .csv: the phone column used, bad rows by number; receipt "to 3 numbers"; one debit', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await env.send(app, env.tg.textUpdate(u, '/sms'));
		await env.send(app, env.tg.textUpdate(u, 'MYSHOP'));
		expect(env.tg.lastText(u.id)).toBe(text('sms-recipients-prompt', { max: 500 }));
		const csv =
			'name,phone\nCustomer 1,08031234567\nCustomer 2,+2348051234567\nCustomer 3,0803 123 4567\nCustomer 4,12345\n' +
			'Customer 5,07012345678\nCustomer 6,\n';
		await env.send(app, env.tg.documentUpdate(u, 'customers.csv', csv));
		expect(env.tg.callsOf('getFile')).toHaveLength(1);
		expect(env.tg.callsOf('#download')).toHaveLength(1);
		const texts = env.tg.textsTo(u.id);
		expect(texts.slice(-2)).toEqual([
			[
				text('sms-found-column', {
					numbers: text('sms-numbers', { n: 3 }),
					column: text('sms-column-named', { name: 'phone' }),
				}),
				text('sms-count-up', { entries: 6, used: 3, duplicates: 1, left: 2 }),
				text('sms-bad-title', { n: 2 }),
				text('sms-bad-entry-reason', {
					where: text('sms-where-row', { n: '5' }),
					value: '12345',
					reason: text('sms-reason-length'),
				}),
				text('sms-bad-entry', { where: text('sms-where-row', { n: '7' }), value: text('sms-empty-cell') }),
			].join('\n'),
			text('sms-message-prompt'),
		]);
		expect(texts.join('\n')).not.toContain('Customer');
		const message = 'Hello from MYSHOP! ' + 'x'.repeat(150); // two pages
		await env.send(app, env.tg.textUpdate(u, message));
		const plan = await env.client.sms.plan({
			sender: 'MYSHOP',
			message,
			recipients: ['08031234567', '08051234567', '08031234567', '07012345678'],
		});
		expect(plan.pages).toBe(2);
		const all = env.tg.textsTo(u.id);
		expect(all[all.length - 2]).toBe(
			[
				'Bulk SMS from MYSHOP',
				'Recipients: 3 numbers', // the repeat was counted in the list's report
				'Message: 169 characters = 2 pages per number',
				`Cost: ₦${plan.cost.naira}`,
			].join('\n'),
		);
		const sms = text('sms-description', { sender: 'MYSHOP', pages: text('sms-pages', { n: 2 }) });
		const three = text('sms-numbers', { n: 3 });
		expect(env.tg.lastText(u.id)).toMatch(
			lines(
				['confirm-question-for', { price: `₦${plan.cost.naira}`, target: three }],
				['confirm-gets', { gets: what(sms, three) }],
				['confirm-pay', { price: `₦${plan.cost.naira}` }],
			),
		);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toMatch(
			pattern('outcome-head', { icon: '✅', label: text('state-successful'), what: what(sms, three) }),
		);
		const debits = (await env.demoLedger()).filter((e) => e.kind === 'debit');
		expect(debits.map((d) => d.amountKobo)).toEqual([plan.cost.kobo]);
		const txns = await env.admin.transactions({ username: env.sb.demo.username, product: 'sms' });
		expect(txns).toHaveLength(1);
		expect(txns[0].recipient.split(',').sort()).toEqual(['2347012345678', '2348031234567', '2348051234567']);
	});

	test('a .csv without a header: the phone column found by its content', async () => {
		const app = await env.makeBot();
		const u = env.alice;
		await env.send(app, env.tg.textUpdate(u, '/sms'));
		await env.send(app, env.tg.textUpdate(u, 'SHOP'));
		await env.send(
			app,
			env.tg.documentUpdate(u, 'list.csv', 'Ada,Lagos,08031234567\nBola,Abuja,08051234567\nChi,Kano,not known\n'),
		);
		expect(env.tg.textsTo(u.id).slice(-2)[0]).toBe(
			'Found 2 numbers in the column 3 (other columns ignored).\n' +
				'3 entries read: 2 used, 0 repeated (used once), 1 left out.\nLeft out (1, not Nigerian mobile numbers):\n' +
				`row 3: not known (${text('sms-reason-letters')})`,
		);
	});

	// "call 0803" is one bad line, not split into a number
	test('pasted text: a line an entry, bad lines by number; non-csv file refused; Unicode warning, pages', async () => {
		const app = await env.makeBot();
		const u = env.bob;
		await env.send(app, env.tg.textUpdate(u, '/sms'));
		// The client's sender rule (letters and digits only).
		await env.send(app, env.tg.textUpdate(u, 'MY SHOP'));
		expect(env.tg.lastText(u.id)).toMatch(/^A sender ID is 1 to 11 letters or digits/);
		await env.send(app, env.tg.textUpdate(u, 'SHOP'));
		await env.send(app, env.tg.documentUpdate(u, 'list.pdf', '%PDF', 'application/pdf'));
		expect(env.tg.lastText(u.id)).toBe('Send a .txt or .csv file (or paste the numbers).');
		await env.send(
			app,
			env.tg.textUpdate(u, '08031234567\ncall 0803\n0805 123 4567\nTunde Bello\n07012345678, 08091234567'),
		);
		expect(env.tg.textsTo(u.id).slice(-2)[0]).toBe(
			'Found 4 numbers.\n6 entries read: 4 used, 0 repeated (used once), 2 left out.\n' +
				'Left out (2, not Nigerian mobile numbers):\n' +
				`line 2: call 0803 (${text('sms-reason-letters')})\nline 4: Tunde Bello (${text('sms-reason-letters')})`,
		);
		const message = '🎉' + 'a'.repeat(226); // 227 characters, one not plain SMS text
		await env.send(app, env.tg.textUpdate(u, message));
		const plan = await env.client.sms.plan({
			sender: 'SHOP',
			message,
			recipients: ['08031234567', '08051234567', '07012345678', '08091234567'],
		});
		expect(plan.pages).toBe(2); // the site's rule: 161–304 characters = 2 pages
		const all = env.tg.textsTo(u.id);
		expect(all[all.length - 2]).toBe(
			[
				'Bulk SMS from SHOP',
				'Recipients: 4 numbers',
				'Message: 227 characters = 2 pages per number',
				`Cost: ₦${plan.cost.naira}`,
				'⚠️ The message has characters that are not plain SMS text (🎉). The site prices it by length: 227 ' +
					'characters = 2 pages. Phones may show them as "?"; remove them to be safe.',
			].join('\n'),
		);
		await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
		expect(env.tg.lastText(u.id)).toMatch(/^✅ Delivered: Bulk SMS from SHOP \(2 pages\) to 4 numbers\./);
		expect(await env.debits()).toBe(1);
	});
});
