/**
 * The owner's daily summary: yesterday's figures (store/report.ts, read from the ledger) sent to the owners
 * once a day, after a set hour in Lagos. Scheduled in-process (a timer on every instance); "sent" is a row
 * in the store database (`bot_notices`, key `daily-summary:<day>`) claimed before sending, so with several
 * instances, or after a restart, each day's summary goes out once. At most once: if Telegram refuses it,
 * it is logged, and `/report` gives the same figures on demand.
 */
import { addDays, buildReport, dayBounds, lagosDay, type Report } from '../../store/report';
import { t } from '../i18n';
import { naira } from '../orders';
import type { StoreSide } from './service';

const WAT_MS = 3_600_000;

/** The summary's text: the same figures as /report's message. */
export function summaryText(title: string, r: Report): string {
	return t('owner-summary', {
		title,
		orders: r.orders,
		sales: naira(r.sales),
		cost: naira(r.vendorCost),
		refunds: naira(r.refunds - r.vendorRefunds),
		profit: naira(r.profit),
		payments: r.payments,
		paidIn: naira(r.paidIn),
		fees: naira(r.fees),
		net: naira(r.net),
	});
}

export class DailySummary {
	private timer?: NodeJS.Timeout;
	private running?: Promise<string | null>;

	constructor(
		private readonly side: StoreSide,
		/** Lagos hour (0-23) from which yesterday's summary is due */
		private readonly hour = 8,
		private readonly intervalMs = 60_000,
	) {}

	/**
	 * Sends yesterday's summary if it is due at `now` and no instance has sent it; returns the day sent, or null.
	 * The timer calls it every minute; tests call it with the instant they want.
	 */
	tick(now: Date = new Date()): Promise<string | null> {
		return (this.running ??= this.pass(now).finally(() => (this.running = undefined)));
	}

	private async pass(now: Date): Promise<string | null> {
		if (new Date(now.getTime() + WAT_MS).getUTCHours() < this.hour) return null;
		const day = addDays(lagosDay(now), -1);
		if (!(await this.side.claim(`daily-summary:${day}`))) return null;
		const { from, to } = dayBounds(day);
		const r = await buildReport(this.side.books.db, from, to);
		await this.side.tellOwners(() => summaryText(t('owner-summary-day', { day }), r));
		this.side.o.logger.info('daily summary sent', { day, owners: this.side.ownerIds.length });
		return day;
	}

	start(): void {
		if (this.timer) return;
		this.timer = setInterval(() => {
			this.tick().catch((e: unknown) => this.side.o.logger.warn('daily summary not sent', { err: e }));
		}, this.intervalMs);
		this.timer.unref();
	}

	async stop(): Promise<void> {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
		await this.running?.catch(() => undefined);
	}
}
