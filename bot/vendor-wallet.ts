/**
 * The till's vendor wallet as the bot last saw it: a balance read (/balance, the check before Confirm) or a
 * purchase's answer (its balance after). A flow's start uses a figure seen within FRESH_MS instead of asking
 * the vendor again; a figure that would refuse the flow is read afresh first, so a refusal never rests on an
 * old figure (the owner may have funded the wallet since).
 */
import type { Money } from './vtu';
import type { Clock } from './journal';
import type { Logger } from './logger';

/** How long a seen balance stands in for a read at a flow's start. */
export const FRESH_MS = 60_000;

/**
 * One request for callers that overlap: while a read is on its way, the next callers wait for its
 * answer instead of sending their own. For the wallet balance, the vendor's /api/user/ (13 KB with
 * every price list) read before each Confirm: a lone seller never overlaps and gets a fresh read
 * each time; 500 buyers at once share a few. The figure is advisory either way (other buyers of
 * the account debit it meanwhile, and the vendor refuses what the wallet cannot pay).
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
	let pending: Promise<T> | undefined;
	return () =>
		(pending ??= read().finally(() => {
			pending = undefined;
		}));
}

export class VendorWallet {
	private seen?: { kobo: number; at: number };
	/** The balance read now (overlapping reads share one request); noted as seen. */
	readonly read: () => Promise<Money>;

	constructor(
		read: () => Promise<Money>,
		private readonly clock: Clock,
		private readonly logger: Logger,
	) {
		this.read = sharedRead(async () => {
			const m = await read();
			this.note(m.kobo);
			return m;
		});
	}

	/** A balance the vendor told (a purchase's balance after). */
	note(kobo: number): void {
		this.seen = { kobo, at: this.clock.now() };
	}

	/**
	 * Whether the wallet can pay `kobo`: a balance seen within FRESH_MS that covers it answers at once;
	 * otherwise the balance is read. `short` carries the balance read when it cannot; null when the read
	 * failed (not a refusal: the check before Confirm and the vendor still refuse what it cannot pay).
	 */
	async covers(kobo: number): Promise<{ short: false } | { short: true; balance: number } | null> {
		const s = this.seen;
		if (s && this.clock.now() - s.at < FRESH_MS && s.kobo >= kobo) return { short: false };
		try {
			const balance = (await this.read()).kobo;
			return balance >= kobo ? { short: false } : { short: true, balance };
		} catch (e) {
			this.logger.warn('vendor balance not read at flow start', { err: e instanceof Error ? e.message : String(e) });
			return null;
		}
	}
}
