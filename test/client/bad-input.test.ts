/** Bad input never reaches the API: invalid_input with a clear message and field, no purchase POST, ledger unchanged. */
import { VtuError, type PurchaseRequest } from '../../client';
import { DIALECTS, startEnv, type Env } from './helpers';

type Case = [string, PurchaseRequest | (() => Promise<unknown>), string, RegExp];
const long = 'x'.repeat(906);

const table = (env: () => Env): Case[] => [
  // data
  ['data: phone too short', { product: 'data', network: 'MTN', plan: 2, phone: '0803123456' }, 'phone', /Nigerian mobile number/],
  ['data: phone letters', { product: 'data', network: 'MTN', plan: 2, phone: '0803abc4567' }, 'phone', /Nigerian mobile number/],
  ['data: phone foreign', { product: 'data', network: 'MTN', plan: 2, phone: '+1 415 555 0100' }, 'phone', /Nigerian/],
  ['data: phone empty', { product: 'data', network: 'MTN', plan: 2, phone: '' }, 'phone', /Nigerian/],
  ['data: GLO number on MTN', { product: 'data', network: 'MTN', plan: 2, phone: '08051234567' }, 'phone', /looks like a GLO number.*ported/],
  ['data: unknown prefix not ported', { product: 'data', network: 'MTN', plan: 2, phone: '07027123456' }, 'phone', /ported: true/],
  ['data: plan of another network', { product: 'data', network: 'MTN', plan: 10, phone: '08031234567' }, 'plan', /not a MTN data plan.*GLO/],
  ['data: unknown plan', { product: 'data', network: 'GLO', plan: 999, phone: '08051234567' }, 'plan', /not a GLO data plan/],
  ['data: plan not a number', { product: 'data', network: 'MTN', plan: 'abc' as unknown as number, phone: '08031234567' }, 'plan', /positive whole number/],
  ['data: plan negative', { product: 'data', network: 'MTN', plan: -2, phone: '08031234567' }, 'plan', /positive whole number/],
  ['data: plan not available', { product: 'data', network: 'MTN', plan: 9, phone: '08031234567' }, 'plan', /not available/],
  ['data: unknown network', { product: 'data', network: 'VODAFONE', plan: 2, phone: '08031234567' }, 'network', /not a network of this site/],
  ['data: unknown network id', { product: 'data', network: 42, plan: 2, phone: '08031234567' }, 'network', /MTN \(1\)/],
  // airtime
  ['airtime: below VTU minimum', { product: 'airtime', network: 'MTN', amount: 49, phone: '08031234567' }, 'amount', /below the VTU minimum of ₦50\.00/],
  ['airtime: below Share and Sell minimum', { product: 'airtime', network: 'MTN', amount: 99.99, phone: '08031234567', type: 'Share and Sell' }, 'amount', /₦100\.00/],
  ['airtime: above maximum', { product: 'airtime', network: 'MTN', amount: '50000.01', phone: '08031234567' }, 'amount', /maximum of ₦50,000\.00/],
  ['airtime: three decimals', { product: 'airtime', network: 'MTN', amount: '100.005', phone: '08031234567' }, 'amount', /at most two decimals/],
  ['airtime: amount words', { product: 'airtime', network: 'MTN', amount: 'hundred', phone: '08031234567' }, 'amount', /not a valid naira amount/],
  ['airtime: negative', { product: 'airtime', network: 'MTN', amount: -100, phone: '08031234567' }, 'amount', /negative/],
  ['airtime: bad type', { product: 'airtime', network: 'MTN', amount: 100, phone: '08031234567', type: 'Awoof' as 'VTU' }, 'type', /VTU.*Share and Sell/],
  ['airtime: AIRTEL number on 9MOBILE', { product: 'airtime', network: '9MOBILE', amount: 100, phone: '08021234567' }, 'phone', /AIRTEL/],
  // cable
  ['cable: IUC with letters', { product: 'cable', provider: 'GOTV', package: 1, iuc: '70123A5678' }, 'iuc', /digits/],
  ['cable: IUC too short', { product: 'cable', provider: 'GOTV', package: 1, iuc: '1234' }, 'iuc', /8–12 digits/],
  ['cable: package of another provider', { product: 'cable', provider: 'GOTV', package: 5, iuc: '7012345678' }, 'package', /not a GOTV package.*DSTV/],
  ['cable: unknown provider', { product: 'cable', provider: 'NETFLIX', package: 1, iuc: '7012345678' }, 'provider', /GOTV \(1\)/],
  ['cable: unknown package', { product: 'cable', provider: 'DSTV', package: 77, iuc: '7023456789' }, 'package', /not a DSTV package/],
  // electricity
  ['electricity: below ₦500', { product: 'electricity', disco: 'Ikeja', meter: '45012345678', meterType: 'prepaid', amount: 499.99 }, 'amount', /minimum of ₦500\.00/],
  ['electricity: meter letters', { product: 'electricity', disco: 'Ikeja', meter: '4501234567X', meterType: 'prepaid', amount: 1000 }, 'meter', /meter number/],
  ['electricity: meter too long', { product: 'electricity', disco: 'Ikeja', meter: '45012345678901', meterType: 'prepaid', amount: 1000 }, 'meter', /6–13 digits/],
  ['electricity: bad meter type', { product: 'electricity', disco: 'Ikeja', meter: '45012345678', meterType: 'smart' as 'prepaid', amount: 1000 }, 'meterType', /prepaid.*postpaid/],
  ['electricity: unknown disco', { product: 'electricity', disco: 'Lagos Power', meter: '45012345678', meterType: 'prepaid', amount: 1000 }, 'disco', /Ikeja Electric \(1\)/],
  ['electricity: bad phone', { product: 'electricity', disco: 1, meter: '45012345678', meterType: 'prepaid', amount: 1000, phone: '123' }, 'phone', /Nigerian/],
  // exam
  ['exam: quantity 0', { product: 'exam_pin', exam: 'WAEC', quantity: 0 }, 'quantity', /1 to 5/],
  ['exam: quantity 6', { product: 'exam_pin', exam: 'WAEC', quantity: 6 }, 'quantity', /1 to 5/],
  ['exam: quantity 2.5', { product: 'exam_pin', exam: 'NECO', quantity: 2.5 }, 'quantity', /whole number/],
  ['exam: unknown exam', { product: 'exam_pin', exam: 'JAMB', quantity: 1 }, 'exam', /WAEC, NECO, NABTEB/],
  // recharge
  ['recharge: quantity 40', { product: 'recharge_card', network: 'MTN', denomination: 1, quantity: 40 }, 'quantity', /1 to 39/],
  ['recharge: quantity 0', { product: 'recharge_card', network: 'MTN', denomination: 1, quantity: 0 }, 'quantity', /1 to 39/],
  ['recharge: denomination of another network', { product: 'recharge_card', network: 'MTN', denomination: 5, quantity: 1 }, 'denomination', /not a MTN recharge card.*GLO/],
  ['recharge: unknown denomination', { product: 'recharge_card', network: 'GLO', denomination: 99, quantity: 1 }, 'denomination', /not a GLO recharge card/],
  // sms
  ['sms: sender too long', { product: 'sms', sender: 'ABCDEFGHIJKL', message: 'hi', recipients: '08031234567' }, 'sender', /1–11 letters or digits/],
  ['sms: sender with space', { product: 'sms', sender: 'My Shop', message: 'hi', recipients: '08031234567' }, 'sender', /no spaces/],
  ['sms: sender empty', { product: 'sms', sender: '', message: 'hi', recipients: '08031234567' }, 'sender', /1–11/],
  ['sms: sender symbols', { product: 'sms', sender: 'Shop!', message: 'hi', recipients: '08031234567' }, 'sender', /symbols/],
  ['sms: empty message', { product: 'sms', sender: 'Shop', message: '   ', recipients: '08031234567' }, 'message', /empty/],
  ['sms: message too long', { product: 'sms', sender: 'Shop', message: long, recipients: '08031234567' }, 'message', /906 characters; the maximum is 905/],
  ['sms: no valid recipients', { product: 'sms', sender: 'Shop', message: 'hi', recipients: '123, 456' }, 'recipients', /none of the 2 recipients/],
  ['sms: no recipients', { product: 'sms', sender: 'Shop', message: 'hi', recipients: [] }, 'recipients', /empty/],
  ['sms.send: message too long', () => env().client.sms.send({ sender: 'Shop', message: long, recipients: '08031234567' }), 'message', /maximum is 905/],
  // identity
  ['bvn: 10 digits', () => env().client.identity.validateBvn('2221234567'), 'bvn', /11 digits/],
  ['bvn: letters', () => env().client.identity.validateBvn('2221234567a'), 'bvn', /BVN/],
  ['nin: 12 digits', () => env().client.identity.validateNin('123456789012'), 'nin', /11 digits/],
  ['nin: empty', () => env().client.identity.validateNin(''), 'nin', /NIN/],
  // validation helpers
  ['validate IUC letters', () => env().client.cable.validate({ provider: 'GOTV', iuc: 'abc' }), 'iuc', /digits/],
  ['validate meter unknown disco', () => env().client.electricity.validate({ disco: 99, meter: '45012345678', meterType: 'prepaid' }), 'disco', /not an electricity company/],
];

describe.each(DIALECTS)('bad input (%s dialect)', (dialect) => {
  let env: Env;
  let ledgerBefore: number;
  beforeAll(async () => {
    env = await startEnv(dialect);
    await env.client.catalog.get();
    ledgerBefore = (await env.admin.ledger()).length;
    env.counting.reset();
  });
  afterAll(() => env.close());

  const cases = table(() => env);
  test(`the table has at least 40 cases (${cases.length})`, () => expect(cases.length).toBeGreaterThanOrEqual(40));

  test.each(cases)('%s', async (_name, req, field, msg) => {
    const run = typeof req === 'function' ? req() : env.client.buy(req);
    const e = await Promise.resolve(run).then(
      () => {
        throw new Error('expected invalid_input');
      },
      (x) => x,
    );
    expect(e).toBeInstanceOf(VtuError);
    expect(e.code).toBe('invalid_input');
    expect(e.field).toBe(field);
    expect(e.message).toMatch(msg);
    if (typeof req !== 'function') await expect(env.client.quote(req)).rejects.toMatchObject({ code: 'invalid_input' });
  });

  test('nothing was sent: no POST, no validation/identity GET, ledger unchanged', async () => {
    expect(env.counting.posts()).toHaveLength(0);
    expect(env.counting.requests.filter((r) => /validate/.test(r.url))).toHaveLength(0);
    expect((await env.admin.ledger()).length).toBe(ledgerBefore);
  });
});
