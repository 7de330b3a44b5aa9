/**
 * Typed client for the sandbox admin API (header X-Admin-Key), on global fetch.
 * Used by tests, benchmarks and chaos runs:
 *
 *   const admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
 *   const { token } = await admin.createUser({ username: 'shop1', balance: '5000.00' });
 *   await admin.addFault({ endpoint: 'POST /api/data/', kind: 'timeout_after', count: 1 });
 *
 * Every method throws SandboxAdminError (with the HTTP status and body) on a non-2xx answer.
 */
import type { BusySpec, BusyStatus } from './busy';
import type { Fault, FaultKind, FaultLogEntry, FaultSpec as FaultInput } from './faults';
import type { LedgerEntry } from './state';

// The admin API answers with the server's own shapes: one definition each, re-exported for callers.
export type { BusySpec, BusyStatus, Fault, FaultInput, FaultLogEntry, LedgerEntry };

export type UserType = 'Smart Earner' | 'Affilliate' | 'TopUser' | 'API';
import type { Product } from './state';

export type { Product };
export type TxnStatus = 'successful' | 'processing' | 'failed';
export type { FaultKind };

export interface AdminUser {
	username: string;
	token: string;
	user_type: UserType;
	whitelist: string[];
	/** Two-decimal naira string. */
	balance: string;
	balanceKobo: number;
	/** false until first funded ("No Wallet Funding Record Found"). */
	funded: boolean;
	FullName: string;
	email: string;
	Phone: string;
}

export interface CreateUserInput {
	username: string;
	/** Default "API". */
	user_type?: UserType;
	/** Opening balance, naira ("1000.00"); default "0" (and then the account counts as never funded). */
	balance?: string | number;
	/** Allowed client IPs, e.g. ["127.0.0.1"]; empty = any. */
	whitelist?: string[];
	/** Fix the token (40 lowercase hex); default generated from the seed. */
	token?: string;
	FullName?: string;
	email?: string;
	Phone?: string;
}

export interface SandboxConfig {
	identity_provider: 'premblyish' | 'dojahish';
	/** Naira debited per BVN/NIN lookup, e.g. "50.00". */
	identity_fee: string;
	/** Read-only. */
	dialect: 'seed' | 'family';
	/** 403 for tokens of non-API accounts (default: true in seed dialect, false in family). */
	enforce_user_type: boolean;
	settle: { mode: 'immediate' | 'processing'; delayMs: number; finalStatus: 'successful' | 'failed' };
	/** Which IUC/meter validation routes answer (the other form is a 404): default "both". */
	validation_routes: 'both' | 'api' | 'ajax';
	/** Store and echo `customer_ref` of purchase bodies (default false). */
	customer_ref: boolean;
	/** Honour per-request `X-Sandbox-Fault` headers (default false). */
	request_faults: boolean;
	/**
	 * Slow vendor: `share` of purchases finish (answer, debit, record) after a time drawn from [minMs, maxMs]. Default
	 * share 0.
	 */
	slow_vendor: { share: number; minMs: number; maxMs: number };
	/** At most this many purchases in flight, the others queue (null = unlimited, the default). */
	max_in_flight: number | null;
	/** Beyond max_in_flight: queue (default), or refuse at once with a 429 (Retry-After: 1) or a 503 page. */
	over_capacity: 'queue' | 'refuse_429' | 'refuse_503';
}

export interface CapacityStatus {
	max_in_flight: number | null;
	inFlight: number;
	queued: number;
	/** Most purchases in flight at once since start / reset. */
	peakInFlight: number;
	/** Purchases that waited for a slot since start / reset. */
	queuedTotal: number;
	/** Purchases refused beyond max_in_flight (over_capacity refuse_429 / refuse_503) since start / reset. */
	refusedTotal: number;
	/** Most purchases waiting for a slot at once since start / reset. */
	peakQueued: number;
}

export type ConfigPatch = Partial<Omit<SandboxConfig, 'settle' | 'slow_vendor'>> & {
	settle?: Partial<SandboxConfig['settle']>;
	slow_vendor?: Partial<SandboxConfig['slow_vendor']>;
};

export interface AdminTxn {
	product: Product;
	id: number;
	ident: string;
	username: string;
	Status: TxnStatus;
	/** What the wallet was charged. */
	amountKobo: number;
	/** Phone, IUC, meter, exam name, name on card, or comma-joined SMS recipients. */
	recipient: string;
	/** ISO-8601 without timezone, as the API prints create_date. */
	created: string;
	/** The buyer's customer_ref (config customer_ref on), else null. */
	customerRef: string | null;
	/** The X-Sandbox-Tag the purchase was sent with (test attribution), else null. */
	tag: string | null;
}

export class SandboxAdminError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
	) {
		super(`sandbox admin: HTTP ${status} ${typeof body === 'string' ? body : JSON.stringify(body)}`);
	}
}

export class SandboxAdmin {
	/** @param baseUrl the sandbox base URL (http://127.0.0.1:PORT), @param adminKey its X-Admin-Key. */
	constructor(
		readonly baseUrl: string,
		private readonly adminKey: string,
	) {}

	private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
		const res = await fetch(this.baseUrl.replace(/\/+$/, '') + path, {
			method,
			headers: { 'x-admin-key': this.adminKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		let parsed: unknown = text;
		try {
			parsed = text ? JSON.parse(text) : null;
		} catch {
			/* keep text */
		}
		if (!res.ok) throw new SandboxAdminError(res.status, parsed);
		return parsed as T;
	}

	// users

	/** Create a user; returns its token. */
	createUser(input: CreateUserInput): Promise<{ username: string; token: string; user_type: UserType }> {
		return this.call('POST', '/admin/users', input);
	}
	listUsers(): Promise<AdminUser[]> {
		return this.call('GET', '/admin/users');
	}
	getUser(username: string): Promise<AdminUser> {
		return this.call('GET', `/admin/users/${encodeURIComponent(username)}`);
	}
	/** Change the user type (prices, 403 rule) and/or the IP whitelist. */
	updateUser(username: string, patch: { user_type?: UserType; whitelist?: string[] }): Promise<AdminUser> {
		return this.call('PATCH', `/admin/users/${encodeURIComponent(username)}`, patch);
	}
	/** Credit the wallet (ledger kind "fund"). */
	fund(username: string, amount: string | number): Promise<{ username: string; balance: string; balanceKobo: number }> {
		return this.call('POST', `/admin/users/${encodeURIComponent(username)}/fund`, { amount });
	}
	/** Replace the user's token (the old one answers 401 "Invalid token."). */
	resetToken(username: string): Promise<{ username: string; token: string }> {
		return this.call('POST', `/admin/users/${encodeURIComponent(username)}/token`);
	}
	/** Balance in kobo (shortcut for getUser). */
	async balanceKobo(username: string): Promise<number> {
		return (await this.getUser(username)).balanceKobo;
	}

	// config

	getConfig(): Promise<SandboxConfig> {
		return this.call('GET', '/admin/config');
	}
	/** Partial update; `settle` is merged. `dialect` is read-only. */
	setConfig(patch: ConfigPatch): Promise<SandboxConfig> {
		return this.call('PATCH', '/admin/config', patch);
	}

	// transactions and ledger

	/** Every record across products, oldest first; filter by username, product, status. */
	transactions(filter: { username?: string; product?: Product; status?: TxnStatus } = {}): Promise<AdminTxn[]> {
		const q = new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== undefined) as Array<[string, string]>);
		return this.call('GET', `/admin/transactions${q.size ? `?${q}` : ''}`);
	}
	transaction(product: Product, id: number): Promise<AdminTxn> {
		return this.call('GET', `/admin/transactions/${product}/${id}`);
	}
	/** Flip a record's Status; → failed refunds the wallet (ledger "refund"). A failed record cannot change (409). */
	setStatus(product: Product, id: number, Status: TxnStatus): Promise<AdminTxn> {
		return this.call('PATCH', `/admin/transactions/${product}/${id}`, { Status });
	}
	ledger(username?: string): Promise<LedgerEntry[]> {
		return this.call('GET', `/admin/ledger${username ? `?username=${encodeURIComponent(username)}` : ''}`);
	}

	// faults

	addFault(input: FaultInput): Promise<Fault> {
		return this.call('POST', '/admin/faults', input);
	}
	faults(): Promise<Fault[]> {
		return this.call('GET', '/admin/faults');
	}
	removeFault(id: number): Promise<{ ok: true }> {
		return this.call('DELETE', `/admin/faults/${id}`);
	}
	/** Remove every rule (the log is kept). */
	clearFaults(): Promise<{ ok: true }> {
		return this.call('DELETE', '/admin/faults');
	}
	/** Every fault applied so far, with what it did (for chaos reports). */
	faultLog(): Promise<FaultLogEntry[]> {
		return this.call('GET', '/admin/faults/log');
	}
	clearFaultLog(): Promise<{ ok: true }> {
		return this.call('DELETE', '/admin/faults/log');
	}

	/** Purchases in flight / queued against config max_in_flight. */
	capacity(): Promise<CapacityStatus> {
		return this.call('GET', '/admin/capacity');
	}

	// busy account

	/** Other buyers start creating `rate` records per second on the account (replaces a running generator). */
	startBusy(spec: BusySpec): Promise<BusyStatus> {
		return this.call('POST', '/admin/busy', spec);
	}
	busy(): Promise<BusyStatus> {
		return this.call('GET', '/admin/busy');
	}
	/** Stop the other buyers (records they made stay). */
	stopBusy(): Promise<BusyStatus> {
		return this.call('DELETE', '/admin/busy');
	}

	/** Fresh seeded state (users, records, ledger, config, faults); the admin key is kept. */
	reset(): Promise<{ ok: true; demo: { username: string; token: string } }> {
		return this.call('POST', '/admin/reset');
	}
}
