/**
 * Bot configuration from the environment, validated with zod.
 * Error messages name the variable and the rule; they never echo a secret's value.
 */
import { z } from 'zod';
import { parseNaira, tryParseKobo } from '../client/money';

const SECRET_VARS = new Set([
	'TELEGRAM_BOT_TOKEN',
	'VTU_API_TOKEN',
	'WEBHOOK_SECRET',
	'REDIS_URL',
	'DATABASE_URL',
	'PAYSTACK_SECRET_KEY',
	'MONNIFY_API_KEY',
	'MONNIFY_SECRET_KEY',
]);

const idList = z
	.string()
	.optional()
	.transform((s, ctx) => {
		const out: number[] = [];
		for (const part of (s ?? '').split(/[\s,;]+/)) {
			if (!part) continue;
			if (!/^\d{1,15}$/.test(part)) {
				ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${part}" is not a Telegram user ID (digits only)` });
				return z.NEVER;
			}
			out.push(Number(part));
		}
		return out;
	});

/** Naira amount → kobo with the client's exact parser (250, 250.50, "₦1,250"; at most two decimals). */
const naira = (def: number) =>
	z
		.string()
		.optional()
		.transform((s, ctx) => {
			if (s === undefined || s.trim() === '') return def * 100;
			try {
				return parseNaira(s, 'amount');
			} catch {
				ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be an amount in naira, e.g. 5000 or 5000.50' });
				return z.NEVER;
			}
		});

const bool = (def: boolean) =>
	z
		.string()
		.optional()
		.transform((s, ctx) => {
			if (s === undefined || s.trim() === '') return def;
			const v = s.trim().toLowerCase();
			if (['1', 'true', 'yes', 'on'].includes(v)) return true;
			if (['0', 'false', 'no', 'off'].includes(v)) return false;
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be true or false' });
			return z.NEVER;
		});

const int = (def: number, min: number, max: number) =>
	z
		.string()
		.optional()
		.transform((s, ctx) => {
			if (s === undefined || s.trim() === '') return def;
			if (!/^\d+$/.test(s.trim()) || Number(s) < min || Number(s) > max) {
				ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be a whole number from ${min} to ${max}` });
				return z.NEVER;
			}
			return Number(s);
		});

const url = (what: string) =>
	z
		.string({ required_error: `is required (${what})` })
		.trim()
		.min(1, `is required (${what})`)
		.refine((s) => {
			try {
				const u = new URL(s);
				return u.protocol === 'http:' || u.protocol === 'https:';
			} catch {
				return false;
			}
		}, 'must be an http(s) URL');

/** Trimmed; unset or blank = `def` (undefined: it stays unset). */
const text = <D extends string | undefined>(def: D) =>
	z
		.string()
		.trim()
		.optional()
		.transform((s) => (s ? s : def));

const optional = text(undefined);

/** Any case, read lowercase; unset or blank = `def`. */
const lowercase = (def: string) => text(def).transform((s) => s.toLowerCase());

/** One of two words, any case; unset or blank = the first. */
const either = (first: string, second: string) =>
	lowercase(first).refine((s) => s === first || s === second, `must be "${first}" or "${second}"`);

const optionalUrl = optional.refine((s) => s === undefined || /^https?:\/\/[^/]/.test(s), 'must be an http(s) URL');

/** A percent like 5 or 2.5 (0-1000, at most 4 decimals): the seller's markup. */
const percent = text('0').refine(
	(s) => /^\d{1,4}(\.\d{1,4})?$/.test(s) && Number(s) <= 1000,
	'must be a percent, e.g. 5 or 2.5',
);

/** The storefront mode's variables (bot/storefront/; docs/storefront.md "Running the storefront"). */
const storefrontEnv = {
	VTU_BOT_MODE: either('till', 'storefront'),
	STORE_PAYMENT_PROVIDER: either('paystack', 'monnify'),
	PAYSTACK_SECRET_KEY: optional,
	PAYSTACK_BASE_URL: optionalUrl,
	MONNIFY_API_KEY: optional,
	MONNIFY_SECRET_KEY: optional,
	MONNIFY_CONTRACT_CODE: optional,
	MONNIFY_BASE_URL: optionalUrl,
	STORE_MARKUP_PERCENT: percent,
	STORE_MARKUP_NAIRA: naira(0),
	STORE_LOW_FLOAT_NAIRA: naira(5_000),
	DATABASE_URL: optional.refine(
		(s) => s === undefined || /^postgres(ql)?:\/\//i.test(s),
		'must be a postgres:// URL (leave it unset for the SQLite file next to BOT_DB_PATH)',
	),
	STORE_DB_PATH: optional,
	STORE_WEBHOOK_PORT: int(8081, 0, 65535),
	STORE_SUMMARY_HOUR: int(8, 0, 23),
	STORE_CUSTOMER_EMAIL_DOMAIN: lowercase('customers.invalid').refine(
		(s) => /^[a-z0-9.-]+\.[a-z]{2,}$/.test(s) || s === 'customers.invalid',
		'must be a domain, e.g. shop.ng',
	),
};

const EnvSchema = z.object({
	TELEGRAM_BOT_TOKEN: z
		.string({ required_error: 'is required (the token from @BotFather)' })
		.trim()
		.regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'does not look like a bot token (expected <digits>:<secret>)'),
	VTU_BASE_URL: url('the merchant API base URL, e.g. https://example.com/api/'),
	VTU_API_TOKEN: z
		.string({ required_error: 'is required (your API token from the merchant site)' })
		.trim()
		.min(8, 'is too short to be an API token'),
	BOT_ADMIN_IDS: idList,
	BOT_ALLOWED_IDS: idList,
	BOT_MAX_PURCHASE_NAIRA: naira(10_000),
	BOT_DAILY_LIMIT_NAIRA: naira(50_000),
	BOT_PIN_REQUIRED: bool(false),
	VTU_TOKEN_SHARED: bool(false),
	VTU_CUSTOMER_REF: bool(false),
	VTU_SMS_RATE_NAIRA: optional.refine((s) => {
		const k = s === undefined ? 0 : tryParseKobo(s, false);
		return s === undefined || (k !== null && k >= 50 && k <= 2_000);
	}, "must be the site's SMS rate in naira per page per number, ₦0.50 to ₦20, e.g. 1.80"),
	VTU_MAX_PROCESSING_SECONDS: int(300, 0, 86_400),
	BOT_PIN_MAX_FAILURES: int(3, 1, 20),
	BOT_PIN_LOCK_MINUTES: int(15, 1, 24 * 60),
	BOT_DB_PATH: text('./vtu-bot.sqlite'),
	REDIS_URL: optional.refine(
		(s) => s === undefined || /^rediss?:\/\//.test(s),
		'must start with redis:// or rediss://',
	),
	TELEGRAM_API_ROOT: text('https://api.telegram.org')
		.transform((s) => s.replace(/\/+$/, ''))
		.refine((s) => /^https?:\/\/[^/]/.test(s), 'must be an http(s) URL'),
	BOT_MODE: either('polling', 'webhook'),
	WEBHOOK_URL: z.string().trim().optional(),
	WEBHOOK_SECRET: z.string().trim().optional(),
	PORT: int(8080, 0, 65535),
	BOT_HOST: text('0.0.0.0'),
	BOT_RATE_LIMIT: int(20, 1, 10_000),
	BOT_RATE_WINDOW_MS: int(10_000, 100, 3_600_000),
	BOT_FOLLOW_INTERVAL_MS: int(15_000, 100, 3_600_000),
	BOT_REFUND_WATCH_HOURS: int(24, 0, 24 * 30),
	...storefrontEnv,
	BOT_LOG_LEVEL: z
		.string()
		.optional()
		.transform((s) => (s ? s.toLowerCase() : 'info'))
		.refine(
			(s) => ['debug', 'info', 'warn', 'error', 'silent'].includes(s),
			'must be debug, info, warn, error or silent',
		),
});

/** Rules across variables, checked on the raw input so they are reported with the others. */
function crossProblems(env: Record<string, string | undefined>): string[] {
	const out: string[] = [];
	if ((env.BOT_MODE ?? '').trim().toLowerCase() === 'webhook') {
		if (!env.WEBHOOK_URL || !/^https?:\/\/[^/]/.test(env.WEBHOOK_URL.trim())) {
			out.push('WEBHOOK_URL is required in webhook mode (the public https URL Telegram posts to)');
		}
		if (!env.WEBHOOK_SECRET || !/^[A-Za-z0-9_-]{16,256}$/.test(env.WEBHOOK_SECRET.trim())) {
			out.push('WEBHOOK_SECRET is required in webhook mode: 16-256 characters of A-Z, a-z, 0-9, _ and -');
		}
	}
	if ((env.VTU_BOT_MODE ?? '').trim().toLowerCase() === 'storefront') return [...out, ...storefrontProblems(env)];
	if (!/\d/.test(env.BOT_ADMIN_IDS ?? '') && !/\d/.test(env.BOT_ALLOWED_IDS ?? '')) {
		out.push('BOT_ADMIN_IDS or BOT_ALLOWED_IDS must be set: nobody would be allowed to use the bot');
	}
	return out;
}

/** Storefront mode: anyone may use the bot, so the owner (alerts) and the payment provider's keys are required. */
function storefrontProblems(env: Record<string, string | undefined>): string[] {
	const out: string[] = [];
	if (!/\d/.test(env.BOT_ADMIN_IDS ?? '')) {
		out.push('BOT_ADMIN_IDS is required in storefront mode: the owner, told when the vendor wallet runs low');
	}
	const provider = (env.STORE_PAYMENT_PROVIDER ?? '').trim().toLowerCase() || 'paystack';
	if (provider === 'paystack' && !env.PAYSTACK_SECRET_KEY?.trim()) {
		out.push('PAYSTACK_SECRET_KEY is required with STORE_PAYMENT_PROVIDER=paystack (your sk_live_… / sk_test_… key)');
	}
	if (provider === 'monnify' && (!env.MONNIFY_API_KEY?.trim() || !env.MONNIFY_SECRET_KEY?.trim())) {
		out.push('MONNIFY_API_KEY and MONNIFY_SECRET_KEY are required with STORE_PAYMENT_PROVIDER=monnify');
	}
	return out;
}

/** The storefront mode's settings (bot/storefront/). */
export interface StorefrontConfig {
	provider: 'paystack' | 'monnify';
	paystack?: { secretKey: string; baseUrl?: string };
	monnify?: { apiKey: string; secretKey: string; contractCode?: string; baseUrl?: string };
	/** The seller's markup on the vendor's price: a percent (a string, exact) plus a fixed kobo amount. */
	markupPercent: string;
	markupKobo: number;
	/** Vendor wallet level (kobo) under which the owner is alerted, once until it recovers. */
	lowFloatKobo: number;
	/** postgres://… → Postgres; otherwise the SQLite file `dbPath`. */
	databaseUrl?: string;
	dbPath: string;
	/** Port of the payment webhook server (POST /webhooks/paystack, /webhooks/monnify); 0 = any free port. */
	webhookPort: number;
	/** Paystack needs an email per customer: `tg<telegram id>@<this domain>`. */
	emailDomain: string;
	/** Lagos hour from which yesterday's summary goes to the owners (0-23). */
	summaryHour: number;
	/** VTU_CUSTOMER_REF: each order's customer_ref is chosen and written with its hold, before the POST. */
	customerRef?: boolean;
}

/** The store's SQLite file by default: next to the journal (`vtu-bot.sqlite` → `vtu-bot.store.sqlite`). */
export function storeDbPathOf(journalPath: string): string {
	return /\.sqlite$/.test(journalPath)
		? journalPath.replace(/\.sqlite$/, '.store.sqlite')
		: `${journalPath}.store.sqlite`;
}

export interface BotConfig {
	/** `till` (default): the merchant's staff on the vendor wallet. `storefront`: customers on their own wallets. */
	botMode: 'till' | 'storefront';
	/** Set in storefront mode. */
	storefront?: StorefrontConfig;
	telegramToken: string;
	vtuBaseUrl: string;
	vtuToken: string;
	/**
	 * Other buyers (n8n, a second bot, a person) use the same API token: a lost answer is then never
	 * settled by adopting a lone matching record (client/API.md "Who owns a record").
	 */
	tokenShared: boolean;
	/** Send a fresh customer_ref with every purchase (the client's opt-in `customerRef`). */
	customerRef: boolean;
	/**
	 * VTU_SMS_RATE_NAIRA: the site's SMS rate (naira a page per number) where it publishes none; else the
	 * client assumes the highest seen (₦2.50) until a send teaches it (client/API.md, "Where an SMS rate comes from").
	 */
	smsRateNaira?: string;
	/**
	 * The vendor's processing bound: the longest it may take to create a purchase's record after the POST.
	 * Before sentAt + this, no read of the account proves "not charged" (a slow vendor's record may still come).
	 */
	maxProcessingMs: number;
	adminIds: number[];
	allowedIds: number[];
	/** Per purchase, kobo. */
	maxPurchaseKobo: number;
	/** Per user per day (Africa/Lagos calendar day), kobo. */
	dailyLimitKobo: number;
	pinRequired: boolean;
	pinMaxFailures: number;
	pinLockMs: number;
	dbPath: string;
	redisUrl?: string;
	apiRoot: string;
	mode: 'polling' | 'webhook';
	webhookUrl?: string;
	webhookSecret?: string;
	port: number;
	host: string;
	rateLimit: number;
	rateWindowMs: number;
	followIntervalMs: number;
	refundWatchMs: number;
	logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

export class ConfigError extends Error {
	constructor(public readonly problems: string[]) {
		super(`Invalid bot configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
		this.name = 'ConfigError';
	}
}

/** Parse the environment. Throws ConfigError listing every problem (names only, never secret values). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): BotConfig {
	const keys = Object.keys(EnvSchema.shape) as (keyof typeof EnvSchema.shape)[];
	const input: Record<string, string | undefined> = {};
	for (const k of keys) input[k] = env[k];
	const parsed = EnvSchema.safeParse(input);
	const cross = crossProblems(input);
	if (!parsed.success || cross.length) {
		const problems = (parsed.success ? [] : parsed.error.issues).map((i) => {
			const name = String(i.path[0] ?? 'environment');
			let msg = i.message;
			if (i.code === 'invalid_type' && i.received === 'undefined')
				msg = msg.startsWith('is required') ? msg : 'is required';
			// Never echo secret values: zod messages for these variables are ours and contain none.
			if (SECRET_VARS.has(name)) msg = msg.replace(/"[^"]*"/g, '"…"');
			return `${name} ${msg}`;
		});
		throw new ConfigError([...problems, ...cross]);
	}
	const e = parsed.data;
	return {
		botMode: e.VTU_BOT_MODE as BotConfig['botMode'],
		storefront: e.VTU_BOT_MODE === 'storefront' ? storefrontOf(e) : undefined,
		telegramToken: e.TELEGRAM_BOT_TOKEN,
		vtuBaseUrl: e.VTU_BASE_URL,
		vtuToken: e.VTU_API_TOKEN,
		tokenShared: e.VTU_TOKEN_SHARED,
		customerRef: e.VTU_CUSTOMER_REF,
		smsRateNaira: e.VTU_SMS_RATE_NAIRA,
		maxProcessingMs: e.VTU_MAX_PROCESSING_SECONDS * 1000,
		adminIds: e.BOT_ADMIN_IDS,
		allowedIds: e.BOT_ALLOWED_IDS,
		maxPurchaseKobo: e.BOT_MAX_PURCHASE_NAIRA,
		dailyLimitKobo: e.BOT_DAILY_LIMIT_NAIRA,
		pinRequired: e.BOT_PIN_REQUIRED,
		pinMaxFailures: e.BOT_PIN_MAX_FAILURES,
		pinLockMs: e.BOT_PIN_LOCK_MINUTES * 60_000,
		dbPath: e.BOT_DB_PATH,
		redisUrl: e.REDIS_URL,
		apiRoot: e.TELEGRAM_API_ROOT,
		mode: e.BOT_MODE as 'polling' | 'webhook',
		webhookUrl: e.WEBHOOK_URL || undefined,
		webhookSecret: e.WEBHOOK_SECRET || undefined,
		port: e.PORT,
		host: e.BOT_HOST,
		rateLimit: e.BOT_RATE_LIMIT,
		rateWindowMs: e.BOT_RATE_WINDOW_MS,
		followIntervalMs: e.BOT_FOLLOW_INTERVAL_MS,
		refundWatchMs: e.BOT_REFUND_WATCH_HOURS * 3_600_000,
		logLevel: e.BOT_LOG_LEVEL as BotConfig['logLevel'],
	};
}

function storefrontOf(e: z.infer<typeof EnvSchema>): StorefrontConfig {
	return {
		provider: e.STORE_PAYMENT_PROVIDER as StorefrontConfig['provider'],
		paystack: e.PAYSTACK_SECRET_KEY ? { secretKey: e.PAYSTACK_SECRET_KEY, baseUrl: e.PAYSTACK_BASE_URL } : undefined,
		monnify:
			e.MONNIFY_API_KEY && e.MONNIFY_SECRET_KEY
				? {
						apiKey: e.MONNIFY_API_KEY,
						secretKey: e.MONNIFY_SECRET_KEY,
						contractCode: e.MONNIFY_CONTRACT_CODE,
						baseUrl: e.MONNIFY_BASE_URL,
					}
				: undefined,
		markupPercent: e.STORE_MARKUP_PERCENT,
		markupKobo: e.STORE_MARKUP_NAIRA,
		lowFloatKobo: e.STORE_LOW_FLOAT_NAIRA,
		databaseUrl: e.DATABASE_URL,
		dbPath: e.STORE_DB_PATH ?? storeDbPathOf(e.BOT_DB_PATH),
		webhookPort: e.STORE_WEBHOOK_PORT,
		emailDomain: e.STORE_CUSTOMER_EMAIL_DOMAIN,
		summaryHour: e.STORE_SUMMARY_HOUR,
		customerRef: e.VTU_CUSTOMER_REF,
	};
}

/** The secrets of a config, for log/message redaction (a password inside any of its URLs included). */
export function secretsOf(
	config: Pick<BotConfig, 'telegramToken' | 'vtuToken' | 'webhookSecret'> & {
		redisUrl?: string;
		apiRoot?: string;
		vtuBaseUrl?: string;
		webhookUrl?: string;
		storefront?: StorefrontConfig;
	},
): string[] {
	const sf = config.storefront;
	const out = [
		config.telegramToken,
		config.vtuToken,
		config.webhookSecret,
		config.redisUrl,
		sf?.paystack?.secretKey,
		sf?.monnify?.apiKey,
		sf?.monnify?.secretKey,
		sf?.databaseUrl,
	].filter((s): s is string => !!s && s.length >= 6);
	for (const url of [config.redisUrl, config.apiRoot, config.vtuBaseUrl, config.webhookUrl, sf?.databaseUrl]) {
		if (!url) continue;
		try {
			const pw = decodeURIComponent(new URL(url).password);
			if (pw.length >= 6) out.push(pw);
		} catch {
			// not a URL: a Redis URL is redacted whole above; the others hold no secret
		}
	}
	// The numeric-prefix-less secret half of the bot token, too.
	const half = config.telegramToken.split(':')[1];
	if (half && half.length >= 6) out.push(half);
	return out;
}
