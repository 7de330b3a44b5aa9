/**
 * The owner's desk (admins, BOT_ADMIN_IDS), storefront mode: `/report` (today, `yesterday`, a day or a range
 * of days, Lagos time) with its CSV file, `/customer <telegram id | @username>` (wallet and recent ledger
 * entries), `/broadcast <text>` to every customer, and `/reply <telegram id> <text>` to answer a /support
 * message. Every figure is read from the ledger (store/report.ts), never from totals kept here.
 */
import { InputFile, type CommandContext } from 'grammy';
import { VtuError } from '../../client/errors';
import { walletId } from '../../store/ledger';
import { addDays, buildReport, dayBounds, lagosDay, reportCsv } from '../../store/report';
import type { MyContext, Services } from '../context';
import { summaryText } from '../storefront/daily';
import type { StoreSide } from '../storefront/service';
import { t, withLocale } from '../i18n';
import { refusalWords } from '../refusals';
import { naira } from '../orders';
import { adminFeature, type CommandHandler, type Feature } from './registry';

const MAX_DAYS = 366;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** '' (today), 'yesterday', 'YYYY-MM-DD' or 'YYYY-MM-DD YYYY-MM-DD' → the first and last day. */
export function reportDays(arg: string, now: Date): { first: string; last: string } | null {
	const words = arg.trim().toLowerCase().split(/\s+/).filter(Boolean);
	const today = lagosDay(now);
	if (!words.length || (words.length === 1 && words[0] === 'today')) return { first: today, last: today };
	if (words.length === 1 && words[0] === 'yesterday') return { first: addDays(today, -1), last: addDays(today, -1) };
	if (words.length > 2 || !words.every((w) => DATE.test(w))) return null;
	return { first: words[0], last: words[words.length - 1] };
}

function reportCommand(s: Services): CommandHandler {
	return async (ctx) => {
		const days = reportDays(ctx.match, new Date());
		if (!days) return ctx.reply(t('report-usage'));
		let from: string, to: string;
		try {
			from = dayBounds(days.first).from;
			to = dayBounds(days.last).to;
		} catch (e) {
			if (e instanceof VtuError)
				return ctx.reply(t('input-problem', { problem: refusalWords(e, t('input-refused')), hint: t('report-usage') }));
			throw e;
		}
		const span = (Date.parse(to) - Date.parse(from)) / 86_400_000;
		if (span < 1 || span > MAX_DAYS) return ctx.reply(t('report-range', { max: MAX_DAYS }));
		const r = await buildReport(s.storefront!.books.db, from, to);
		const title =
			days.first === days.last
				? t('owner-summary-day', { day: days.first })
				: t('report-title-range', { first: days.first, last: days.last });
		await ctx.reply(summaryText(title, r));
		const name = `report-${days.first}${days.last === days.first ? '' : `-to-${days.last}`}.csv`;
		return ctx.replyWithDocument(new InputFile(Buffer.from(reportCsv(r), 'utf8'), name), {
			caption: t('report-csv', { rows: r.rows.length }),
		});
	};
}

/** The customer's id from `<telegram id>` or `@username` (as they last /started), or null. */
async function findCustomer(side: StoreSide, arg: string): Promise<string | null> {
	const a = arg.trim();
	if (/^\d{1,15}$/.test(a)) {
		const c = await side.books.db.selectFrom('customers').select('id').where('id', '=', a).executeTakeFirst();
		return c?.id ?? null;
	}
	const m = /^@?([A-Za-z0-9_]{3,32})$/.exec(a);
	if (!m) return null;
	const p = await side.books.db
		.selectFrom('customer_profiles')
		.select('customer_id')
		.where('username', '=', m[1].toLowerCase())
		.executeTakeFirst();
	return p?.customer_id ?? null;
}

/** A ledger reason, in words. */
const ENTRY_TEXT: Record<string, string> = {
	payment: 'ledger-payment',
	payment_fee: 'ledger-payment-fee',
	unpark: 'ledger-unpark',
	hold: 'ledger-hold',
	settle: 'ledger-settle',
	release: 'ledger-release',
	refund: 'ledger-refund',
	manual_credit: 'ledger-manual-credit',
	manual_debit: 'ledger-manual-debit',
};

/**
 * An entry's sign, as the money the customer can spend moved: a hold takes it (−), its settle books the
 * same money as paid (no second −), and its release gives it back (+), although both close the hold with
 * a transfer out of the wallet.
 */
const SIGN: Record<string, string> = { hold: '−', settle: '', release: '+' };

/** The wallet's last ledger entries, newest first, one line each. */
async function recentEntries(side: StoreSide, customer: string, limit = 10): Promise<string[]> {
	const w = walletId(customer);
	const rows = await side.books.db
		.selectFrom('transfers')
		.select(['debit_account', 'credit_account', 'amount', 'reason', 'reference', 'created_at'])
		.where((eb) => eb.or([eb('debit_account', '=', w), eb('credit_account', '=', w)]))
		.orderBy('seq', 'desc')
		.limit(limit)
		.execute();
	return rows.map((r) => {
		const sign = SIGN[r.reason] ?? (r.credit_account === w ? '+' : '−');
		const reason = ENTRY_TEXT[r.reason] ? t(ENTRY_TEXT[r.reason]) : r.reason;
		const at = new Date(Date.parse(r.created_at) + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
		return t('customer-entry', { at, amount: `${sign}${naira(Number(r.amount))}`, reason, ref: r.reference });
	});
}

function customerCommand(s: Services): CommandHandler {
	return async (ctx) => {
		const side = s.storefront!;
		const id = await findCustomer(side, ctx.match);
		if (!id) return ctx.reply(t(ctx.match.trim() ? 'customer-not-found' : 'customer-usage', { who: ctx.match.trim() }));
		const c = await side.books.db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
		const p = await side.books.db
			.selectFrom('customer_profiles')
			.selectAll()
			.where('customer_id', '=', id)
			.executeTakeFirst();
		const w = await side.books.walletBalance(id);
		const entries = await recentEntries(side, id);
		const head = t('customer-card', {
			id,
			name: c.name || '–',
			username: p?.username ? `@${p.username}` : '–',
			tier: p?.tier ?? 'regular',
			balance: naira(w.balance),
			held: naira(w.held),
			available: naira(w.available),
			since: c.created_at.slice(0, 10),
		});
		return ctx.reply(
			[head, '', entries.length ? t('customer-entries') : t('customer-no-entries'), ...entries].join('\n'),
		);
	};
}

/** The broadcast's ids: every customer with a Telegram id (the owners included: they see what was sent). */
async function audience(side: StoreSide): Promise<number[]> {
	const rows = await side.books.db.selectFrom('customers').select('id').orderBy('id').execute();
	return rows
		.map((r) => r.id)
		.filter((id) => /^\d{1,15}$/.test(id))
		.map(Number);
}

/**
 * Sends one message to every customer, one at a time through the bot's API: its auto-retry plugin waits
 * out Telegram's 429 "retry after" answers, so the broadcast keeps within Telegram's limits. Each
 * (broadcast, customer) is claimed in the store database first: a re-delivered command, or another
 * instance, sends nobody the same broadcast twice.
 */
export async function broadcast(s: Services, ref: string, text: string): Promise<{ sent: number; failed: number }> {
	const side = s.storefront!;
	let sent = 0;
	let failed = 0;
	for (const id of await audience(side)) {
		if (!(await side.claim(`broadcast:${ref}:${id}`))) continue;
		try {
			await s.api.sendMessage(id, text);
			sent++;
		} catch (e) {
			failed++; // blocked the bot, or never opened it: logged, not retried
			s.logger.warn('broadcast not delivered', { user: id, err: e instanceof Error ? e.message : String(e) });
		}
	}
	return { sent, failed };
}

function broadcastCommand(s: Services): CommandHandler {
	return async (ctx: CommandContext<MyContext>) => {
		const text = ctx.match.trim();
		if (text.length < 2 || text.length > 4000) return ctx.reply(t('broadcast-usage'));
		const ref = `tg-${ctx.chat.id}-${ctx.msg.message_id}`;
		const total = (await audience(s.storefront!)).length;
		await ctx.reply(t('broadcast-started', { count: total }));
		const chatId = ctx.chat.id;
		// in the background: a long broadcast must not hold the update (a webhook answers within seconds)
		void broadcast(s, ref, text)
			.then((r) => s.api.sendMessage(chatId, t('broadcast-done', { sent: r.sent, failed: r.failed })))
			.catch((e: unknown) => s.logger.error('broadcast stopped', { err: e }));
		return undefined;
	};
}

function replyCommand(s: Services): CommandHandler {
	return async (ctx) => {
		const m = /^\s*(\d{1,15})\s+([\s\S]{1,3500})$/.exec(ctx.match);
		if (!m) return ctx.reply(t('reply-usage'));
		try {
			// in the customer's language, not the owner's
			const answer = withLocale(s.locales.of(Number(m[1])), () => t('support-answer', { text: m[2].trim() }));
			await s.api.sendMessage(Number(m[1]), answer);
		} catch {
			return ctx.reply(t('reply-failed', { customer: m[1] }));
		}
		return ctx.reply(t('reply-sent', { customer: m[1] }));
	};
}

export const ownerDesk = adminFeature(
	'desk',
	{ report: 'cmd-report', customer: 'cmd-customer', broadcast: 'cmd-broadcast', reply: 'cmd-reply' },
	(s) => ({
		report: reportCommand(s),
		customer: customerCommand(s),
		broadcast: broadcastCommand(s),
		reply: replyCommand(s),
	}),
);

/** `/support <message>`: the customer's message goes to the owners, with who sent it and how to answer. */
export const support: Feature = {
	name: 'support',
	commands: [{ name: 'support', description: 'cmd-support', help: 'help-support', keepsFlow: true }],
	build: (s) => ({
		commands: {
			support: async (ctx) => {
				const text = ctx.match.trim();
				if (text.length < 2) return ctx.reply(t('support-usage'));
				const u = ctx.from!;
				const who = `${[u.first_name, u.last_name].filter(Boolean).join(' ')}${u.username ? ` (@${u.username})` : ''}`;
				await s.storefront!.tellOwners(() =>
					t('support-to-owner', { who, id: String(u.id), text: text.slice(0, 3500) }),
				);
				s.logger.info('support message forwarded', { user: u.id });
				return ctx.reply(t('support-sent'));
			},
		},
	}),
};
