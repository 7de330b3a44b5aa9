/** Storefront mode's configuration: names, defaults, cross-variable rules, and no secret in any message. */
import { ConfigError, loadConfig, secretsOf, storeDbPathOf } from '../../bot/config';
import { pricingOf } from '../../bot/storefront/service';

const base = {
	TELEGRAM_BOT_TOKEN: '123456789:AAHsecret-part_of_the_token_xyz',
	VTU_BASE_URL: 'http://127.0.0.1:8080/api/',
	VTU_API_TOKEN: 'f'.repeat(40),
};
const PAYSTACK = 'sk_test_paystack_secret_value_0001';

function problemsOf(env: Record<string, string>): string[] {
	try {
		loadConfig(env);
	} catch (e) {
		expect(e).toBeInstanceOf(ConfigError);
		return (e as ConfigError).problems;
	}
	return [];
}

test('the till stays the default: no storefront settings, the allowlist rule unchanged', () => {
	const c = loadConfig({ ...base, BOT_ALLOWED_IDS: '33' });
	expect(c.botMode).toBe('till');
	expect(c.storefront).toBeUndefined();
	expect(problemsOf(base)).toEqual([
		'BOT_ADMIN_IDS or BOT_ALLOWED_IDS must be set: nobody would be allowed to use the bot',
	]);
});

test('storefront mode: Paystack by default, markup, low float, the store file next to the journal', () => {
	const c = loadConfig({
		...base,
		VTU_BOT_MODE: 'storefront',
		BOT_ADMIN_IDS: '11',
		PAYSTACK_SECRET_KEY: PAYSTACK,
		STORE_MARKUP_PERCENT: '2.5',
		STORE_MARKUP_NAIRA: '20',
		BOT_DB_PATH: '/var/lib/vtu/bot.sqlite',
	});
	expect(c.botMode).toBe('storefront');
	expect(c.storefront).toMatchObject({
		provider: 'paystack',
		paystack: { secretKey: PAYSTACK },
		markupPercent: '2.5',
		markupKobo: 2_000,
		lowFloatKobo: 500_000,
		dbPath: '/var/lib/vtu/bot.store.sqlite',
		webhookPort: 8081,
	});
	expect(c.storefront!.databaseUrl).toBeUndefined();
	expect(pricingOf(c.storefront!)).toEqual({ markupPercent: '2.5', markupKobo: 2_000 });
	expect(pricingOf({ markupPercent: '0', markupKobo: 0 })).toEqual({ markupPercent: undefined, markupKobo: undefined });
	expect(storeDbPathOf('./vtu-bot.sqlite')).toBe('./vtu-bot.store.sqlite');
	expect(storeDbPathOf('journal.db')).toBe('journal.db.store.sqlite');
});

test('storefront mode: Monnify and Postgres; every secret is known to the redactor', () => {
	const url = 'postgres://shop:pg-password-123@db.internal:5432/shop';
	const c = loadConfig({
		...base,
		VTU_BOT_MODE: 'STOREFRONT',
		BOT_ADMIN_IDS: '11',
		STORE_PAYMENT_PROVIDER: 'monnify',
		MONNIFY_API_KEY: 'MK_PROD_ABCDEFGH',
		MONNIFY_SECRET_KEY: 'monnify-secret-0123456789',
		MONNIFY_CONTRACT_CODE: '7059707855',
		DATABASE_URL: url,
	});
	expect(c.storefront).toMatchObject({
		provider: 'monnify',
		monnify: { apiKey: 'MK_PROD_ABCDEFGH', secretKey: 'monnify-secret-0123456789', contractCode: '7059707855' },
		databaseUrl: url,
	});
	const secrets = secretsOf(c);
	for (const s of ['MK_PROD_ABCDEFGH', 'monnify-secret-0123456789', url, 'pg-password-123'])
		expect(secrets).toContain(s);
});

test('storefront mode: what is missing or wrong is named, and no secret value is echoed', () => {
	const problems = problemsOf({
		...base,
		VTU_BOT_MODE: 'storefront',
		STORE_MARKUP_PERCENT: 'five',
		STORE_LOW_FLOAT_NAIRA: 'lots',
		DATABASE_URL: 'mysql://root:hunter2-secret@db/shop',
	});
	expect(problems).toEqual(
		expect.arrayContaining([
			'STORE_MARKUP_PERCENT must be a percent, e.g. 5 or 2.5',
			'STORE_LOW_FLOAT_NAIRA must be an amount in naira, e.g. 5000 or 5000.50',
			'DATABASE_URL must be a postgres:// URL (leave it unset for the SQLite file next to BOT_DB_PATH)',
			'BOT_ADMIN_IDS is required in storefront mode: the owner, told when the vendor wallet runs low',
			'PAYSTACK_SECRET_KEY is required with STORE_PAYMENT_PROVIDER=paystack (your sk_live_… / sk_test_… key)',
		]),
	);
	expect(problems.join('\n')).not.toContain('hunter2');
	expect(problemsOf({ ...base, VTU_BOT_MODE: 'shop' })).toContain('VTU_BOT_MODE must be "till" or "storefront"');
	expect(
		problemsOf({ ...base, VTU_BOT_MODE: 'storefront', BOT_ADMIN_IDS: '1', STORE_PAYMENT_PROVIDER: 'monnify' }),
	).toEqual(['MONNIFY_API_KEY and MONNIFY_SECRET_KEY are required with STORE_PAYMENT_PROVIDER=monnify']);
});
