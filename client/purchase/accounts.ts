/**
 * What this process knows about each account it buys on: the records its orders own (claims), identical
 * purchases in flight, what the site supports (`?search=`, `customer_ref` echo) and the server's clock.
 * A VtuClient holds one AccountRegistry (option `accounts`; default the process-wide one), so every client
 * of the same account in this process (two n8n executions) shares claims and never adopts the same record.
 */
import type { Product } from '../types';

/** The server's naive create_date clock, learned per site (base URL): shared by every account of the site. */
export interface SiteClock {
	/** naive create_date − our UTC clock, learned from a record received directly (ms). */
	offset?: number;
	/** The naive create_date's timezone (ms, 15-minute steps), learned after a restart from a claimed record. */
	zone?: number;
	/**
	 * Bounds on the true offset from the latest direct answer: its record was created after its POST was
	 * sent and before its answer arrived, so offset ∈ [create − received, create − sent + precision].
	 * `at`: when they were learned (drift grows with age).
	 */
	bounds?: { lo: number; hi: number; at: number };
}

export interface AccountState {
	/** Records owned by an order, per product: ids (numbers) and idents (strings). */
	claimed: Map<Product, Set<number | string>>;
	/** Identical purchases in flight per match key. */
	inflight: Map<string, number>;
	/** Purchases this process has begun on the account (an SMS rate is learned only from a window with one). */
	begun?: number;
	/** `?search=` support per product: true filters, false ignored, undefined unknown. */
	searchSupport: Map<Product, boolean>;
	/** Does the site serve `/api/Wallet_summary/`? false after a 404; undefined until asked. */
	walletHistory?: boolean;
	/** Does its `?search=` filter the wallet history? false once a filtered page showed other rows. */
	walletSearch?: boolean;
	/** Does the site store and echo `customer_ref`? Learned from direct answers and records. */
	refEcho?: boolean;
	/** The site's clock (the same object for every account of the base URL). */
	clock: SiteClock;
}

/** Hidden from util.inspect / JSON: the keys carry a token hash, and the state is large. */
const inspectCustom: unique symbol = Symbol.for('nodejs.util.inspect.custom');

export class AccountRegistry {
	private readonly accounts = new Map<string, AccountState>();
	private readonly clocks = new Map<string, SiteClock>();

	/** The state of one account: `baseUrl` (the site) and `key` (base URL + token hash, catalog's cacheKey). */
	account(baseUrl: string, key: string): AccountState {
		let a = this.accounts.get(key);
		if (!a) {
			let clock = this.clocks.get(baseUrl);
			if (!clock) this.clocks.set(baseUrl, (clock = {}));
			this.accounts.set(key, (a = { claimed: new Map(), inflight: new Map(), searchSupport: new Map(), clock }));
		}
		return a;
	}

	/** Forget every account's claims, in-flight counts and learned clocks (what a process restart does). */
	clear(): void {
		this.accounts.clear();
		this.clocks.clear();
	}

	toJSON(): Record<string, unknown> {
		return { accounts: this.accounts.size };
	}

	[inspectCustom](): string {
		return `AccountRegistry { accounts: ${this.accounts.size} }`;
	}
}

let processWide: AccountRegistry | undefined;

/** The registry every VtuClient of this process uses unless given its own. */
export function processAccounts(): AccountRegistry {
	return (processWide ??= new AccountRegistry());
}
