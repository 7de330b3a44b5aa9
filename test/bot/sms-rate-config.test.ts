/**
 * VTU_SMS_RATE_NAIRA: the site's SMS rate where it publishes none (the family build). Without it the
 * storefront priced bulk SMS on the client's assumption (₦2.50 a page, the highest seen) until a send taught
 * the rate; with it /prices and every quote use the site's own. The real bot process (`bot/main.ts`) in
 * storefront mode, the merchant sandbox over HTTP, the fake Bot API; it waits for replies, never for time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../bot/config';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { FakeTelegram, makeUser } from './fake-telegram';
import { BOT_TOKEN, runBot } from './harness';
import { text } from './texts';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, dialect: 'family' });
});
afterAll(async () => {
	await sb.close();
});

const base = { TELEGRAM_BOT_TOKEN: BOT_TOKEN, VTU_API_TOKEN: 'f'.repeat(40), BOT_ADMIN_IDS: '11' };

test('the rate is naira a page per number, checked with the other variables', () => {
	const env = { ...base, VTU_BASE_URL: 'http://127.0.0.1:1/api/' };
	expect(loadConfig({ ...env, VTU_SMS_RATE_NAIRA: '1.80' }).smsRateNaira).toBe('1.80');
	expect(loadConfig(env).smsRateNaira).toBeUndefined();
	for (const bad of ['0.10', '180', '1.805', 'cheap']) {
		expect(() => loadConfig({ ...env, VTU_SMS_RATE_NAIRA: bad })).toThrow(ConfigError);
		try {
			loadConfig({ ...env, VTU_SMS_RATE_NAIRA: bad });
		} catch (e) {
			expect((e as ConfigError).problems).toEqual([
				"VTU_SMS_RATE_NAIRA must be the site's SMS rate in naira per page per number, ₦0.50 to ₦20, e.g. 1.80",
			]);
		}
	}
});

test('a storefront on a site that publishes no SMS rate lists SMS at the rate set', async () => {
	const tg = await new FakeTelegram().start();
	const dir = mkdtempSync(join(tmpdir(), 'vtu-smsrate-'));
	const u = makeUser(undefined, 'Ada');
	const p = runBot({
		...base,
		VTU_BASE_URL: sb.baseUrl,
		VTU_API_TOKEN: sb.demo.token,
		VTU_BOT_MODE: 'storefront',
		PAYSTACK_SECRET_KEY: 'sk_test_sms_rate_config_0123456789',
		STORE_WEBHOOK_PORT: '0',
		VTU_SMS_RATE_NAIRA: '1.80',
		BOT_DB_PATH: join(dir, 'bot.sqlite'),
		TELEGRAM_API_ROOT: tg.apiRoot,
	});
	try {
		await tg.waitFor(() => tg.callsOf('setMyCommands').length > 0, 30_000, 'setMyCommands');
		tg.sendText(u, '/prices');
		const one = text('prices-line', {
			name: text('prices-sms-item', { numbers: text('sms-numbers', { n: 1 }) }),
			price: '₦1.80',
		});
		const list = await tg.waitForText(u.id, new RegExp(text('prices-section-sms')), 30_000);
		expect(list).toContain(one); // no markup configured: the site's ₦1.80, not the assumed ₦2.50
		p.child.kill('SIGTERM');
		expect(await p.exited).toBe(0);
	} finally {
		if (p.child.exitCode === null) p.child.kill('SIGKILL');
		await tg.close();
		rmSync(dir, { recursive: true, force: true });
	}
}, 90_000);
