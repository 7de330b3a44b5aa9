/**
 * In-memory state of the sandbox: users, wallets (integer kobo), transaction records,
 * the ledger, admin config and fault rules. Every balance change goes through
 * `move()`, which also appends the ledger entry, so the ledger always explains the balance.
 */
import { BusyAccount } from './busy';
import { tierOf, type Tier, type UserType } from './catalog';
import { deliver } from './delivery';
import { FaultBook } from './faults';
import { Rng } from './rng';

export type Dialect = 'seed' | 'family';
/** The products the sandbox sells (its own list: the sandbox is the vendor, it does not read the client's). */
export const PRODUCTS = [
	'data',
	'airtime',
	'cable',
	'electricity',
	'exam_pin',
	'recharge_card',
	'sms',
	'data_coupon',
] as const;
export type Product = (typeof PRODUCTS)[number];
export type Status = 'successful' | 'processing' | 'failed';
export type IdentityProvider = 'premblyish' | 'dojahish';

export interface User {
	id: number;
	username: string;
	token: string;
	userType: UserType;
	tier: Tier;
	/** Allowed client IPs; empty = any. */
	whitelist: string[];
	balanceKobo: number;
	/** false until the first funding: such accounts get "No Wallet Funding Record Found". */
	funded: boolean;
	fullName: string;
	email: string;
	phone: string;
	address: string;
	/** Fake Django hash: the family leaks it in /api/user/, clients must strip it. */
	passwordHash: string;
	txns: Record<Product, Txn[]>;
}

/** Product-specific fields of a record (only the ones of its product are set). */
export interface TxnDetail {
	networkId?: number;
	planId?: number;
	ported?: boolean;
	airtimeType?: string;
	faceKobo?: number;
	cableId?: number;
	cablePlanId?: number;
	discoId?: number;
	meterType?: 'Prepaid' | 'Postpaid';
	customerPhone?: string;
	customerName?: string;
	customerAddress?: string;
	token?: string;
	exam?: string;
	quantity?: number;
	pins?: string[];
	raw?: string;
	denomId?: number;
	nameOnCard?: string;
	cards?: Array<{ pk: number; pin: string; serial: string }>;
	sender?: string;
	to?: string[];
	message?: string;
	pages?: number;
	rateKobo?: number;
	invalid?: number;
	dnd?: boolean;
	apiResponse?: string;
	/** The buyer's `customer_ref` (config.customer_ref on): stored and echoed like newer builds may. */
	customerRef?: string;
	/** Test attribution (header X-Sandbox-Tag): shown by the admin API only, never on the merchant API. */
	tag?: string;
}

export interface Txn {
	product: Product;
	id: number;
	ident: string;
	username: string;
	status: Status;
	/** What the wallet was charged. */
	amountKobo: number;
	beforeKobo: number;
	afterKobo: number;
	/** Phone, IUC, meter, exam name, network…: what identifies the recipient (used by ?search=). */
	recipient: string;
	/** ISO-8601 without timezone, microseconds like Django prints them. */
	createDate: string;
	d: TxnDetail;
}

export interface LedgerEntry {
	seq: number;
	username: string;
	kind: 'fund' | 'debit' | 'refund';
	amountKobo: number;
	balanceAfterKobo: number;
	product: string | null;
	txnId: number | null;
	ident: string | null;
	at: string;
}

export interface SettleConfig {
	/** immediate: purchases answer their final status; processing: they answer `processing` and settle after delayMs. */
	mode: 'immediate' | 'processing';
	delayMs: number;
	finalStatus: 'successful' | 'failed';
}

export interface Config {
	identity_provider: IdentityProvider;
	/** Naira string debited per BVN/NIN lookup. */
	identity_fee: string;
	/** Read-only: fixed at start. */
	dialect: Dialect;
	/**
	 * 403 for tokens of accounts whose user_type is not API. Default: on in seed dialect, off in family (no such check
	 * there).
	 */
	enforce_user_type: boolean;
	settle: SettleConfig;
	/**
	 * Which IUC/meter validation routes answer: `/api/validateiuc/` + `/api/validatemeter/` ("api"), the
	 * website's `/ajax/validate_iuc/` + `/ajax/validate_meter_number/` ("ajax"), or both (default). The
	 * other form answers Django's 404 page, as on a site that lacks it (docs/real-sites.md §8).
	 */
	validation_routes: ValidationRoutes;
	/**
	 * Store `customer_ref` from purchase bodies and echo it in records (unverified on real sites, docs/real-sites.md §7).
	 * Default off.
	 */
	customer_ref: boolean;
	/** Honour `X-Sandbox-Fault` request headers (per-request faults for chaos actors). Default off. */
	request_faults: boolean;
	/**
	 * A slow vendor: this share of purchases answer only after a time drawn from [minMs, maxMs], and their
	 * debit and record happen then (not at POST time). Default share 0 (off).
	 */
	slow_vendor: SlowVendor;
	/** At most this many purchases in flight; the others queue for a slot. null (default) = unlimited. */
	max_in_flight: number | null;
	/**
	 * What a purchase beyond max_in_flight gets: a place in the queue (default, a site that slows down),
	 * or at once a 429 with Retry-After: 1 (a throttling site) or nginx's 503 page (a proxy shedding load),
	 * both before the site does anything with it.
	 */
	over_capacity: OverCapacity;
}

export type OverCapacity = 'queue' | 'refuse_429' | 'refuse_503';

export interface SlowVendor {
	share: number;
	minMs: number;
	maxMs: number;
}

export type ValidationRoutes = 'both' | 'api' | 'ajax';

const IDENT_PREFIX: Record<Product, string> = {
	data: 'Data',
	airtime: 'Airtime',
	cable: 'Cable',
	electricity: 'Bill',
	exam_pin: 'Exam',
	recharge_card: 'Recharge',
	sms: 'Sms',
	data_coupon: 'DataPin',
};

/**
 * The clock as ISO-8601 strings, formatted once per millisecond: under load many records and ledger entries
 * share a millisecond, and formatting a Date is a large part of what a purchase costs the sandbox.
 */
const clock = { ms: -1, iso: '', django: '' };
function tick(): void {
	const ms = Date.now();
	if (ms === clock.ms) return;
	clock.ms = ms;
	clock.iso = new Date(ms).toISOString();
	clock.django = `${clock.iso.slice(0, 23)}000`;
}
/** Now, as Django prints a DateTimeField (microseconds, no timezone). */
export const djangoNow = (): string => {
	tick();
	return clock.django;
};
/** Now, as toISOString() prints it. */
const isoNow = (): string => {
	tick();
	return clock.iso;
};

export interface NewUser {
	username: string;
	userType?: UserType;
	balanceKobo?: number;
	whitelist?: string[];
	token?: string;
	fullName?: string;
	email?: string;
	phone?: string;
}

export class SandboxState {
	users = new Map<string, User>();
	byToken = new Map<string, User>();
	txns: Record<Product, Txn[]> = emptyTxns();
	ledger: LedgerEntry[] = [];
	/** The ledger per username (the wallet history route reads one account's rows). */
	private ledgerByUser = new Map<string, LedgerEntry[]>();
	faults = new FaultBook();
	/** Other buyers on one account (admin /admin/busy): stopped by reset and close. */
	readonly busy = new BusyAccount(this);
	config!: Config;
	rng!: Rng;
	/** Pending settlement / flip timers, cleared on reset and close. */
	private timers = new Set<NodeJS.Timeout>();
	private nextUserId = 1;
	private nextPinPk = 1;

	constructor(
		readonly dialect: Dialect,
		readonly seed: number,
		private readonly demo: { username: string; token?: string },
	) {
		this.reset();
	}

	/** Fresh seeded state: same seed → same demo token, idents and fault rolls. */
	reset(): void {
		this.busy.stop('reset');
		this.clearTimers();
		this.rng = new Rng(this.seed);
		this.users.clear();
		this.byToken.clear();
		this.txns = emptyTxns();
		this.ledger = [];
		this.ledgerByUser.clear();
		this.faults.reset();
		this.nextUserId = 1;
		this.nextPinPk = 1;
		this.config = {
			identity_provider: 'premblyish',
			identity_fee: '50.00',
			dialect: this.dialect,
			enforce_user_type: this.dialect === 'seed',
			settle: { mode: 'immediate', delayMs: 2000, finalStatus: 'successful' },
			validation_routes: 'both',
			customer_ref: false,
			request_faults: false,
			slow_vendor: { share: 0, minMs: 40_000, maxMs: 120_000 },
			max_in_flight: null,
			over_capacity: 'queue',
		};
		this.createUser({
			username: this.demo.username,
			token: this.demo.token,
			userType: 'API',
			balanceKobo: 1_000_000_00,
			fullName: 'Demo Merchant',
			email: 'demo@sandbox.invalid',
			phone: '08030000000',
		});
	}

	get demoUser(): User {
		return this.users.get(this.demo.username)!;
	}

	createUser(u: NewUser): User {
		const userType = u.userType ?? 'API';
		const user: User = {
			id: this.nextUserId++,
			username: u.username,
			token: u.token ?? this.rng.hex(40),
			userType,
			tier: tierOf(userType),
			whitelist: u.whitelist ?? [],
			balanceKobo: 0,
			funded: false,
			fullName: u.fullName ?? `${u.username} Sandbox`,
			email: u.email ?? `${u.username}@sandbox.invalid`,
			phone: u.phone ?? '08030000000',
			address: '1 Sandbox Close, Ikeja, Lagos',
			passwordHash: `pbkdf2_sha256$260000$${this.rng.hex(22)}$${Buffer.from(this.rng.hex(32), 'hex').toString('base64')}`,
			txns: emptyTxns(),
		};
		this.users.set(user.username, user);
		this.byToken.set(user.token, user);
		if (u.balanceKobo) this.fund(user, u.balanceKobo);
		return user;
	}

	setUserType(user: User, userType: UserType): void {
		user.userType = userType;
		user.tier = tierOf(userType);
	}

	resetToken(user: User): string {
		this.byToken.delete(user.token);
		user.token = this.rng.hex(40);
		this.byToken.set(user.token, user);
		return user.token;
	}

	fund(user: User, kobo: number): void {
		user.funded = true;
		this.move(user, 'fund', kobo, null);
	}

	/**
	 * Debit the wallet and store a record. The caller has checked the balance and the input.
	 * Status follows config.settle (or `forceStatus`); deliverables (token, pins, cards) are made on success.
	 */
	purchase(
		user: User,
		product: Product,
		amountKobo: number,
		recipient: string,
		d: TxnDetail,
		forceStatus?: Status,
	): Txn {
		const list = this.txns[product];
		const id = list.length + 1;
		const txn: Txn = {
			product,
			id,
			ident: `${IDENT_PREFIX[product]}${this.rng.hex(9)}-${id}`,
			username: user.username,
			status: 'processing',
			amountKobo,
			beforeKobo: user.balanceKobo,
			afterKobo: user.balanceKobo - amountKobo,
			recipient,
			createDate: djangoNow(),
			d,
		};
		list.push(txn);
		user.txns[product].push(txn);
		this.move(user, 'debit', amountKobo, txn);
		const s = this.config.settle;
		if (forceStatus) this.setStatus(txn, forceStatus);
		else if (s.mode === 'immediate') this.setStatus(txn, s.finalStatus);
		else {
			deliver(txn, this);
			this.later(s.delayMs, () => txn.status === 'processing' && this.setStatus(txn, s.finalStatus));
		}
		return txn;
	}

	/** A fee without a record (identity lookups): ledger entry only. */
	charge(user: User, amountKobo: number, product: string, ident: string): void {
		this.move(user, 'debit', amountKobo, { product, id: null, ident });
	}

	/**
	 * Change a record's status. → failed refunds once (ledger entry); → successful delivers.
	 * A failed record stays failed (its money is back in the wallet).
	 */
	setStatus(txn: Txn, status: Status): { ok: true } | { ok: false; error: string } {
		if (txn.status === status) return { ok: true };
		if (txn.status === 'failed') return { ok: false, error: 'a failed (refunded) transaction cannot change status' };
		// Real sites debit bulk SMS only once the upstream says "sent", and their history rows carry no
		// status, so no client could ever see a later change: refuse it rather than fake one.
		if (txn.product === 'sms' && txn.status !== 'processing')
			return { ok: false, error: 'a bulk SMS batch is final once sent; its status cannot change' };
		txn.status = status;
		if (status === 'failed') this.move(this.users.get(txn.username)!, 'refund', txn.amountKobo, txn);
		deliver(txn, this);
		return { ok: true };
	}

	/** One account's ledger entries, oldest first. */
	ledgerOf(username: string): readonly LedgerEntry[] {
		return this.ledgerByUser.get(username) ?? [];
	}

	find(product: Product, id: number): Txn | undefined {
		return this.txns[product][id - 1];
	}

	nextCardPk(): number {
		return this.nextPinPk++;
	}

	/** Run `fn` after `ms` unless the sandbox is reset or closed first. */
	later(ms: number, fn: () => void): void {
		const t = setTimeout(() => {
			this.timers.delete(t);
			fn();
		}, ms);
		t.unref();
		this.timers.add(t);
	}

	clearTimers(): void {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
	}

	private move(
		user: User,
		kind: LedgerEntry['kind'],
		kobo: number,
		ref: { product: string; id: number | null; ident: string } | null,
	): void {
		user.balanceKobo += kind === 'debit' ? -kobo : kobo;
		const entry: LedgerEntry = {
			seq: this.ledger.length + 1,
			username: user.username,
			kind,
			amountKobo: kobo,
			balanceAfterKobo: user.balanceKobo,
			product: ref?.product ?? null,
			txnId: ref?.id ?? null,
			ident: ref?.ident ?? null,
			at: isoNow(),
		};
		this.ledger.push(entry);
		let mine = this.ledgerByUser.get(user.username);
		if (!mine) this.ledgerByUser.set(user.username, (mine = []));
		mine.push(entry);
	}
}

function emptyTxns(): Record<Product, Txn[]> {
	return Object.fromEntries(PRODUCTS.map((p) => [p, []])) as unknown as Record<Product, Txn[]>;
}
