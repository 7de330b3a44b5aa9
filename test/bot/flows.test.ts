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
  test('network → plans with prices → phone → "Confirm ₦250.00 for 0803 123 4567 (MTN)?" → result with ident; exactly one debit', async () => {
    const app = await env.makeBot();
    const u = env.alice;
    await env.send(app, env.tg.textUpdate(u, '/data'));
    expect(env.tg.lastText(u.id)).toBe('Buy data: choose the network.');
    expect(env.tg.buttons(u.id).map((b) => b.text)).toEqual(expect.arrayContaining(['MTN', 'GLO', 'AIRTEL', '9MOBILE', 'Cancel']));
    await env.send(app, env.tg.buttonUpdate(u, 'MTN'));
    expect(env.tg.lastText(u.id)).toBe('MTN data: choose a plan.');
    expect(env.tg.buttons(u.id).map((b) => b.text)).toContain('1GB SME ₦250.00 (30 days)');
    await env.send(app, env.tg.buttonUpdate(u, '1GB SME ₦250.00 (30 days)'));
    expect(env.tg.lastText(u.id)).toBe('Send the MTN phone number (e.g. 0803 123 4567).');
    await env.send(app, env.tg.textUpdate(u, '+234 803 123 4567'));
    expect(env.tg.lastText(u.id)).toBe('Confirm ₦250.00 for 0803 123 4567 (MTN)?\nMTN data 1GB SME (30 days)');
    expect(await env.debits()).toBe(0); // nothing spent before the confirm
    await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
    expect(env.tg.answers()).toContain('Confirmed');
    const result = env.tg.lastText(u.id)!;
    expect(result).toMatch(/^✅ Successful: MTN data 1GB SME \(30 days\) to 0803 123 4567\.\nCharged: ₦250\.00\nReference: (\S+)\nWallet balance: ₦999,750\.00$/);
    const ident = /Reference: (\S+)/.exec(result)![1];

    const ledger = await env.demoLedger();
    expect(ledger.filter((e) => e.kind === 'debit')).toEqual([{ kind: 'debit', amountKobo: 25000, ident }]);
    const txns = await env.admin.transactions({ username: env.sb.demo.username, product: 'data' });
    expect(txns).toHaveLength(1);
    expect(txns[0].recipient).toBe('08031234567');

    // Journal: final and told.
    const o = app.journal.recentForUser(u.id)[0];
    expect(o).toMatchObject({ state: 'successful', ident, chargedKobo: 25000, notifiedState: 'successful' });

    await env.send(app, env.tg.textUpdate(u, '/history'));
    expect(env.tg.lastText(u.id)).toMatch(new RegExp(`1\\. .*MTN data 1GB SME \\(30 days\\) → 0803 123 4567, ₦250\\.00: successful \\(${ident}\\)`));
    await env.send(app, env.tg.textUpdate(u, `/status ${ident}`));
    expect(env.tg.lastText(u.id)).toMatch(/^Data order of .*\n✅ Successful: .*Reference: /s);
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
    expect(env.tg.lastText(u.id)).toBe('Confirm ₦250.00 for 0805 123 4567 (MTN, ported)?\nMTN data 1GB SME (30 days)');
    await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
    expect(env.tg.lastText(u.id)).toMatch(/^✅ Successful/);
    expect(await env.debits()).toBe(1);
  });

  test('Cancel on the confirm: nothing bought, order cancelled', async () => {
    const app = await env.makeBot();
    await dataToConfirm(env, app, env.alice);
    await env.send(app, env.tg.buttonUpdate(env.alice, /^cancel:/));
    expect(env.tg.lastText(env.alice.id)).toMatch(/Cancelled\. Nothing was bought\.$/);
    expect(await env.debits()).toBe(0);
    expect(app.journal.recentForUser(env.alice.id)[0].state).toBe('cancelled');
  });
});

describe('/airtime', () => {
  test('network → amount → phone → confirm with the discounted price → one debit of that price', async () => {
    const app = await env.makeBot();
    const u = env.bob;
    await env.send(app, env.tg.textUpdate(u, '/airtime'));
    await env.send(app, env.tg.buttonUpdate(u, 'AIRTEL'));
    expect(env.tg.lastText(u.id)).toMatch(/How much AIRTEL airtime/);
    await env.send(app, env.tg.textUpdate(u, '20'));
    expect(env.tg.lastText(u.id)).toBe('The smallest airtime top-up is ₦50.');
    for (const bad of ['150.505', '-200', 'two hundred']) {
      await env.send(app, env.tg.textUpdate(u, bad));
      expect(env.tg.lastText(u.id)).toBe('Send the amount as a number of naira, e.g. 200 or 150.50.');
    }
    await env.send(app, env.tg.textUpdate(u, '₦1,000,000'));
    expect(env.tg.lastText(u.id)).toMatch(/above your per-purchase limit/);
    await env.send(app, env.tg.textUpdate(u, '₦500'));
    await env.send(app, env.tg.textUpdate(u, '0802 123 4567'));
    const confirm = env.tg.lastText(u.id)!;
    const m = /^Confirm (₦[\d,.]+) for 0802 123 4567 \(AIRTEL\)\?\nAIRTEL airtime ₦500\.00$/.exec(confirm);
    expect(m).not.toBeNull();
    const quoted = await env.client.quote({ product: 'airtime', network: 'AIRTEL', amount: '500', phone: '08021234567', type: 'VTU' });
    expect(m![1]).toBe(`₦${quoted.amount.naira}`);
    await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
    expect(env.tg.lastText(u.id)).toMatch(/^✅ Successful: AIRTEL airtime ₦500\.00 to 0802 123 4567\./);
    const debits = (await env.demoLedger()).filter((e) => e.kind === 'debit');
    expect(debits.map((d) => d.amountKobo)).toEqual([quoted.amount.kobo]);
  });
});

describe('/sms', () => {
  test('recipients as a .csv document: invalid numbers listed, pages and cost shown before confirming; one debit of that cost', async () => {
    const app = await env.makeBot();
    const u = env.alice;
    await env.send(app, env.tg.textUpdate(u, '/sms'));
    await env.send(app, env.tg.textUpdate(u, 'MYSHOP'));
    expect(env.tg.lastText(u.id)).toMatch(/recipients: paste the numbers .* or send a \.txt or \.csv file/);
    const csv = 'name,phone\nAda,08031234567\nBola,+2348051234567\nChi,0803 123 4567\nDayo,12345\nEmeka,07012345678\n';
    await env.send(app, env.tg.documentUpdate(u, 'customers.csv', csv));
    expect(env.tg.callsOf('getFile')).toHaveLength(1);
    expect(env.tg.callsOf('#download')).toHaveLength(1);
    expect(env.tg.lastText(u.id)).toBe('Now send the message text.');
    const message = 'Hello from MYSHOP! ' + 'x'.repeat(150); // two pages
    await env.send(app, env.tg.textUpdate(u, message));
    const texts = env.tg.textsTo(u.id);
    const summary = texts[texts.length - 2];
    const plan = await env.client.sms.plan({ sender: 'MYSHOP', message, recipients: ['08031234567', '+2348051234567', '0803 123 4567', '12345', '07012345678'] });
    expect(summary).toBe(
      [
        'Bulk SMS from MYSHOP',
        'Recipients: 3 (1 duplicate removed)',
        `Pages per message: ${plan.pages}`,
        `Cost: ₦${plan.cost.naira}`,
        'Invalid numbers (1, skipped): 12345',
      ].join('\n'),
    );
    expect(plan.pages).toBe(2);
    expect(env.tg.lastText(u.id)).toBe(`Confirm ₦${plan.cost.naira} for 3 recipients?\nBulk SMS from MYSHOP, 2 pages to 3 numbers`);
    await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
    expect(env.tg.lastText(u.id)).toMatch(/^✅ Successful: Bulk SMS from MYSHOP/);
    const debits = (await env.demoLedger()).filter((e) => e.kind === 'debit');
    expect(debits.map((d) => d.amountKobo)).toEqual([plan.cost.kobo]);
    const txns = await env.admin.transactions({ username: env.sb.demo.username, product: 'sms' });
    expect(txns).toHaveLength(1);
    expect(txns[0].recipient.split(',').sort()).toEqual(['2347012345678', '2348031234567', '2348051234567']);
  });

  test('recipients pasted as text; a non-csv file is refused', async () => {
    const app = await env.makeBot();
    const u = env.bob;
    await env.send(app, env.tg.textUpdate(u, '/sms'));
    // The client's sender rule (letters and digits only): the bot used to accept "MY SHOP", which
    // the client then refused only after recipients and message had been typed.
    await env.send(app, env.tg.textUpdate(u, 'MY SHOP'));
    expect(env.tg.lastText(u.id)).toMatch(/^A sender ID is 1 to 11 letters or digits/);
    await env.send(app, env.tg.textUpdate(u, 'SHOP'));
    await env.send(app, env.tg.documentUpdate(u, 'list.pdf', '%PDF', 'application/pdf'));
    expect(env.tg.lastText(u.id)).toBe('Send a .txt or .csv file (or paste the numbers).');
    await env.send(app, env.tg.textUpdate(u, '08031234567, 08051234567'));
    await env.send(app, env.tg.textUpdate(u, 'Hi'));
    expect(env.tg.lastText(u.id)).toMatch(/^Confirm ₦[\d.,]+ for 2 recipients\?/);
    await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
    expect(await env.debits()).toBe(1);
  });
});
