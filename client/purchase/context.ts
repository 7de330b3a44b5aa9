/** Reconciliation settings and the context every purchase step runs in. */
import type { CatalogCache } from '../catalog';
import type { HttpCore } from '../http';
import type { ClientSettings } from '../products/common';
import type { Logger } from '../util';
import type { AccountState } from './accounts';

export interface ReconcileSettings {
	/**
	 * The vendor's processing bound: the longest the site may take to create the record of a purchase after
	 * it was sent. not_charged is answered only once this has passed and every record since the send was
	 * read. Default 300 000 (client/API.md "Proof of not charged" says why).
	 */
	maxProcessingMs: number;
	/** How long to keep re-reading when nothing matches yet. Default 6 000. */
	waitMs: number;
	/** Pause between re-reads. Default 1 500. */
	pollMs: number;
	/**
	 * List pages `transactions.get` / `findByIdent` scan for a record on sites without a detail route (at least 5).
	 * Default 3.
	 */
	maxPages: number;
	/**
	 * List pages one read may go back to reach its window's start (reconciliation and the "already
	 * bought?" check). Default 200 (3,000 records at 15 a page); a read cut there proves nothing, so the
	 * answer is unknown_outcome, never not_charged.
	 */
	readBackPages: number;
	/** Allowed clock skew between the learned offset and reality. Default 120 000. */
	skewMs: number;
	/** Server's naive create_date offset from UTC in minutes, if known (e.g. 60 for Africa/Lagos). */
	serverUtcOffsetMinutes?: number;
	/**
	 * Other processes may buy on this account at the same moment (n8n queue mode with several workers,
	 * several bots, another app, a person on the website). This process cannot see their purchases, so a
	 * lone matching record could be theirs: it is adopted only when its customer_ref proves it ours, else
	 * the answer is unknown_outcome with it as the candidate. Default true: the client cannot know who else
	 * holds the token, so only a caller that knows it is the only buyer sets false (client/API.md).
	 */
	sharedAccount: boolean;
}

export const DEFAULT_RECONCILE: ReconcileSettings = {
	maxProcessingMs: 300_000,
	waitMs: 6_000,
	pollMs: 1_500,
	maxPages: 3,
	readBackPages: 200,
	skewMs: 120_000,
	sharedAccount: true,
};

export interface PurchaseContext {
	http: HttpCore;
	catalog: CatalogCache;
	settings: ClientSettings;
	reconcile: ReconcileSettings;
	logger?: Logger;
	/** This account's claims, in-flight counts, site facts and clock (from the client's AccountRegistry). */
	account: AccountState;
	/** Send a fresh `customer_ref` with every purchase and trust it when the site echoes it (opt-in). */
	customerRef: boolean;
}
