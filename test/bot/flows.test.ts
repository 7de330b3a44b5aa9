/** Purchase flows end to end: fake Bot API ← bot → real client → real sandbox (HTTP). */
import { dataToConfirm, useBotEnv } from './harness';

const env = useBotEnv();

describe('menus and reading', () => {
  test('/start shows the main menu; commands were registered at start-up', async () => {
    const app = await env.makeBot();
    const cmds = env.tg.callsOf('setMyCommands');
    expect(cmds[0].payload.commands.map((c: any) => c.command)).toEqual(
      expect.arrayContaining(['start', 'balance', 'data', 'airtime', 'sms', 'history', 'status', 'cancel', 'help']),
    );
    // Admin commands only in the admin's chat scope.
    expect(cmds.some((c) => c.payload.scope?.chat_id === env.admin1.id && c.payload.commands.some((x: any) => x.command === 'allow'))).toBe(true);
    await env.send(app, env.tg.textUpdate(env.alice, '/start'));
    expect(env.tg.lastText(env.alice.id)).toBe('Hello Alice! What would you like to do?');
    expect(env.tg.buttons(env.alice.id).map((b) => b.text)).toEqual(['📶 Buy data', '📞 Airtime', '✉️ Bulk SMS', '💰 Balance', '🧾 History', '❓ Help']);
  });

  test('/balance, and Balance from the menu', async () => {
    const app = await env.makeBot();
    await env.send(app, env.tg.textUpdate(env.alice, '/balance'));
    expect(env.tg.lastText(env.alice.id)).toBe('💰 Wallet balance: ₦1,000,000.00');
    expect(env.tg.buttons(env.alice.id).slice(-1).map((b) => b.text)).toEqual(['🏠 Menu']);
    await env.admin.fund(env.sb.demo.username, '250.50');
    await env.send(app, env.tg.textUpdate(env.alice, '/start'));
    await env.send(app, env.tg.buttonUpdate(env.alice, '💰 Balance'));
    expect(env.tg.lastText(env.alice.id)).toBe('💰 Wallet balance: ₦1,000,250.50');
  });

  test('/help states the limits', async () => {
    const app = await env.makeBot();
    await env.send(app, env.tg.textUpdate(env.alice, '/help'));
    expect(env.tg.lastText(env.alice.id)).toMatch(/Limits: ₦5,000.00 per purchase, ₦20,000.00 per day \(₦20,000.00 left today\)/);
  });
});

describe('/data', () => {
  test('network → plans → phone → labelled confirm → "Sending…" edited in place to the result with next steps; exactly one debit', async () => {
    const app = await env.makeBot();
    const u = env.alice;
    await env.send(app, env.tg.textUpdate(u, '/data'));
    expect(env.tg.lastText(u.id)).toBe('Buy data: choose the network.');
    expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual(expect.arrayContaining(['MTN', 'GLO', 'AIRTEL', '9MOBILE', 'Cancel']));
    await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
    expect(env.tg.lastText(u.id)).toBe('MTN data: choose a plan.');
    expect(env.tg.buttons(u.id).map((b) => b.text)).toContain('1GB SME ₦250.00 (30 days)');
    await env.send(app, env.tg.buttonUpdate(u, '1GB SME ₦250.00 (30 days)'));
    expect(env.tg.lastText(u.id)).toBe('MTN data: 1GB SME ₦250.00 (30 days)\nSend the MTN phone number (e.g. 0803 123 4567).'); // the plan message, edited
    await env.send(app, env.tg.textUpdate(u, '+234 803 123 4567'));
    expect(env.tg.lastText(u.id)).toBe(
      'Confirm ₦250.00 for 0803 123 4567 (MTN)?\nCustomer gets: MTN data 1GB SME (30 days) to 0803 123 4567 (MTN)\nYou pay: ₦250.00 from the wallet\nWallet after: ₦999,750.00',
    );
    expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual(['✅ Confirm: pay ₦250.00', '✖️ Cancel']);
    expect(await env.debits()).toBe(0); // nothing spent before the confirm
    const confirmMsg = env.tg.findButton(u.id, /^confirm:/)!.messageId;
    await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
    expect(env.tg.answers()).toContain('Confirmed');
    // The confirm message itself becomes "Sending…", then the result: no new message for either.
    const edits = env.tg.callsOf('editMessageText').filter((c) => c.payload.message_id === confirmMsg).map((c) => String(c.payload.text));
    expect(edits[0]).toBe("⏳ Sending… don't pay again.\nMTN data 1GB SME (30 days) to 0803 123 4567");
    const result = edits[1];
    expect(edits).toHaveLength(2);
    expect(env.tg.lastText(u.id)).toBe(result);
    expect(result).toMatch(/^✅ Delivered: MTN data 1GB SME \(30 days\) to 0803 123 4567\.\nCharged: ₦250\.00\nReference: (\S+)\nWallet balance: ₦999,750\.00$/);
    expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual(['🔁 Buy again', '🏠 Menu']);
    const ident = /Reference: (\S+)/.exec(result)![1];

    const ledger = await env.demoLedger();
    expect(ledger.filter((e) => e.kind === 'debit')).toEqual([{ kind: 'debit', amountKobo: 25000, ident }]);
    const txns = await env.admin.transactions({ username: env.sb.demo.username, product: 'data' });
    expect(txns).toHaveLength(1);
    expect(txns[0].recipient).toBe('08031234567');

    // Journal: final and told.
    const o = app.journal.recentForUser(u.id)[0];
    expect(o).toMatchObject({ state: 'successful', ident, chargedKobo: 25000, notifiedState: 'successful' });

    await env.send(app, env.tg.textUpdate(u, `/status ${ident}`));
    expect(env.tg.lastText(u.id)).toMatch(/^Data order of .*\n✅ Delivered: .*Reference: /s);
    expect(env.tg.buttons(u.id).slice(-2).map((b) => b.text)).toEqual(['🔁 Buy again', '🏠 Menu']);
  });

  test('invalid phone is asked again; a number of another network offers the ported option', async () => {
    const app = await env.makeBot();
    const u = env.alice;
    await env.send(app, env.tg.textUpdate(u, '/data'));
    await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
    await env.send(app, env.tg.buttonUpdate(u, /^1GB SME /));
    await env.send(app, env.tg.textUpdate(u, '12345'));
    expect(env.tg.lastText(u.id)).toMatch(/^That is not a Nigerian mobile number/);
    await env.send(app, env.tg.textUpdate(u, '08051234567')); // GLO prefix
    expect(env.tg.lastText(u.id)).toBe('0805 123 4567 looks like GLO, not MTN. Has this number been ported to MTN?');
    await env.send(app, env.tg.buttonUpdate(u, 'ported:n'));
    await env.send(app, env.tg.textUpdate(u, '08051234567'));
    await env.send(app, env.tg.buttonUpdate(u, 'ported:y'));
    expect(env.tg.lastText(u.id)).toMatch(/^Confirm ₦250\.00 for 0805 123 4567 \(MTN, ported\)\?\nCustomer gets: MTN data 1GB SME \(30 days\) to 0805 123 4567 \(MTN, ported\)\n/);
    await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
    expect(env.tg.lastText(u.id)).toMatch(/^✅ Delivered/);
    expect(await env.debits()).toBe(1);
  });

  test('Cancel on the confirm: nothing bought, order cancelled, a Menu button as the next step', async () => {
    const app = await env.makeBot();
    await dataToConfirm(env, app, env.alice);
    await env.send(app, env.tg.buttonUpdate(env.alice, /^cancel:/));
    expect(env.tg.lastText(env.alice.id)).toMatch(/Cancelled\. Nothing was bought\.$/);
    expect(env.tg.buttons(env.alice.id).map((b) => b.text)).toEqual(['🏠 Menu']);
    expect(await env.debits()).toBe(0);
    expect(app.journal.recentForUser(env.alice.id)[0].state).toBe('cancelled');
  });
});

describe('/airtime', () => {
  test('quick amounts; typed amounts judged (at most 2 decimals); confirm says what the seller pays and what the customer gets; one debit of that price', async () => {
    const app = await env.makeBot();
    const u = env.bob;
    await env.send(app, env.tg.textUpdate(u, '/airtime'));
    await env.send(app, env.tg.buttonUpdate(u, 'AIRTEL'));
    expect(env.tg.lastText(u.id)).toBe('How much AIRTEL airtime? Tap an amount, or type one in naira (at least ₦50), e.g. 250.');
    expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual(['₦100', '₦200', '₦500', '₦1,000', 'Cancel']);
    const said: Record<string, string> = {
      '20': 'The smallest airtime top-up is ₦50.00.',
      // the client's parser of amounts: what a client call or a node would refuse, with what to type
      '200.555': 'The amount "200.555" has more than two decimals: type at most two decimals, e.g. 200.55.',
      '-200': 'The amount "-200" must not be negative: type the amount to pay, e.g. 250.',
      'two hundred': 'The amount "two hundred" is not a naira amount: type digits with at most two decimals, e.g. 250 or 250.50.',
      '₦1,000,000': 'The amount "₦1,000,000" must be a plain number: type 1000000 (digits and at most two decimals; no ₦, commas or spaces).',
      '1000000': 'That is above your per-purchase limit of ₦5,000.00. Send a smaller amount.',
    };
    for (const [typed, answer] of Object.entries(said)) {
      await env.send(app, env.tg.textUpdate(u, typed));
      expect(env.tg.lastText(u.id)).toBe(answer);
    }
    await env.send(app, env.tg.buttonUpdate(u, '₦500'));
    expect(env.tg.lastText(u.id)).toBe('Send the AIRTEL phone number (e.g. 0803 123 4567).');
    await env.send(app, env.tg.textUpdate(u, '0802 123 4567'));
    const quoted = await env.client.quote({ product: 'airtime', network: 'AIRTEL', amount: '500', phone: '08021234567', type: 'VTU' });
    expect(quoted.amount.kobo).toBeLessThan(50_000); // the site's discount: the two amounts differ
    expect(env.tg.lastText(u.id)).toBe(
      [
        `Confirm ₦${quoted.amount.naira} for 0802 123 4567 (AIRTEL)?`,
        'Customer gets: ₦500.00 AIRTEL airtime on 0802 123 4567',
        `You pay: ₦${quoted.amount.naira} from the wallet (the site's price for ₦500.00 of airtime)`,
        `Wallet after: ₦${(1_000_000 - quoted.amount.kobo / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
      ].join('\n'),
    );
    await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
    expect(env.tg.lastText(u.id)).toMatch(/^✅ Delivered: AIRTEL airtime ₦500\.00 to 0802 123 4567\./);
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
    expect(env.tg.lastText(u.id)).toMatch(/^Confirm ₦[\d,.]+ for 0803 123 4567 \(MTN\)\?\nCustomer gets: ₦150\.50 MTN airtime on 0803 123 4567\n/);
  });
});

describe('/sms', () => {
  test('a .csv with a name,phone header: the phone column is used, names ignored, bad rows by row number; receipt "to 3 numbers"; one debit', async () => {
    const app = await env.makeBot();
    const u = env.alice;
    await env.send(app, env.tg.textUpdate(u, '/sms'));
    await env.send(app, env.tg.textUpdate(u, 'MYSHOP'));
    expect(env.tg.lastText(u.id)).toBe('Now the recipients: paste the numbers (one per line), or send a .txt or .csv file.');
    const csv = 'name,phone\nCustomer 1,08031234567\nCustomer 2,+2348051234567\nCustomer 3,0803 123 4567\nCustomer 4,12345\nCustomer 5,07012345678\nCustomer 6,\n';
    await env.send(app, env.tg.documentUpdate(u, 'customers.csv', csv));
    expect(env.tg.callsOf('getFile')).toHaveLength(1);
    expect(env.tg.callsOf('#download')).toHaveLength(1);
    const texts = env.tg.textsTo(u.id);
    expect(texts.slice(-2)).toEqual([
      'Found 4 numbers in the "phone" column (other columns ignored).\nLeft out (2, not Nigerian mobile numbers):\nrow 5: 12345 (wrong length)\nrow 7: (empty)',
      'Now send the message text.',
    ]);
    expect(texts.join('\n')).not.toContain('Customer');
    const message = 'Hello from MYSHOP! ' + 'x'.repeat(150); // two pages
    await env.send(app, env.tg.textUpdate(u, message));
    const plan = await env.client.sms.plan({ sender: 'MYSHOP', message, recipients: ['08031234567', '08051234567', '08031234567', '07012345678'] });
    expect(plan.pages).toBe(2);
    const all = env.tg.textsTo(u.id);
    expect(all[all.length - 2]).toBe(['Bulk SMS from MYSHOP', 'Recipients: 3 numbers (1 duplicate removed)', 'Message: 169 characters = 2 pages per number', `Cost: ₦${plan.cost.naira}`].join('\n'));
    expect(env.tg.lastText(u.id)).toMatch(new RegExp(`^Confirm ₦${plan.cost.naira.replace('.', '\\.')} for 3 numbers\\?\\nCustomer gets: Bulk SMS from MYSHOP \\(2 pages\\) to 3 numbers\\nYou pay: ₦${plan.cost.naira.replace('.', '\\.')} from the wallet`));
    await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
    expect(env.tg.lastText(u.id)).toMatch(/^✅ Delivered: Bulk SMS from MYSHOP \(2 pages\) to 3 numbers\.\n/);
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
    await env.send(app, env.tg.documentUpdate(u, 'list.csv', 'Ada,Lagos,08031234567\nBola,Abuja,08051234567\nChi,Kano,not known\n'));
    expect(env.tg.textsTo(u.id).slice(-2)[0]).toBe('Found 2 numbers in the column 3 (other columns ignored).\nLeft out (1, not Nigerian mobile numbers):\nrow 3: not known (letters)');
  });

  test('pasted text: one line is one entry, bad lines by number ("call 0803" is not split); a non-csv file is refused; Unicode warning with the page count', async () => {
    const app = await env.makeBot();
    const u = env.bob;
    await env.send(app, env.tg.textUpdate(u, '/sms'));
    // The client's sender rule (letters and digits only).
    await env.send(app, env.tg.textUpdate(u, 'MY SHOP'));
    expect(env.tg.lastText(u.id)).toMatch(/^A sender ID is 1 to 11 letters or digits/);
    await env.send(app, env.tg.textUpdate(u, 'SHOP'));
    await env.send(app, env.tg.documentUpdate(u, 'list.pdf', '%PDF', 'application/pdf'));
    expect(env.tg.lastText(u.id)).toBe('Send a .txt or .csv file (or paste the numbers).');
    await env.send(app, env.tg.textUpdate(u, '08031234567\ncall 0803\n0805 123 4567\nTunde Bello\n07012345678, 08091234567'));
    expect(env.tg.textsTo(u.id).slice(-2)[0]).toBe('Found 4 numbers.\nLeft out (2, not Nigerian mobile numbers):\nline 2: call 0803 (letters)\nline 4: Tunde Bello (letters)');
    const message = '🎉' + 'a'.repeat(226); // 227 characters, one not plain SMS text
    await env.send(app, env.tg.textUpdate(u, message));
    const plan = await env.client.sms.plan({ sender: 'SHOP', message, recipients: ['08031234567', '08051234567', '07012345678', '08091234567'] });
    expect(plan.pages).toBe(2); // the site's rule: 161–304 characters = 2 pages
    const all = env.tg.textsTo(u.id);
    expect(all[all.length - 2]).toBe(
      [
        'Bulk SMS from SHOP',
        'Recipients: 4 numbers',
        'Message: 227 characters = 2 pages per number',
        `Cost: ₦${plan.cost.naira}`,
        '⚠️ The message has characters that are not plain SMS text (🎉). The site prices it by length: 227 characters = 2 pages. Phones may show them as "?"; remove them to be safe.',
      ].join('\n'),
    );
    await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
    expect(env.tg.lastText(u.id)).toMatch(/^✅ Delivered: Bulk SMS from SHOP \(2 pages\) to 4 numbers\./);
    expect(await env.debits()).toBe(1);
  });
});
