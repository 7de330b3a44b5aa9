/**
 * The storefront's database: SQLite by default (one file, nothing to install), Postgres when a
 * `DATABASE_URL` (postgres://…) is given. Both go through one Kysely code path; the schema below is the
 * same SQL on both, and the money rules (no overspend, credit once per reference, resolve a hold once)
 * are constraints the database enforces, not checks in JS.
 */
import type BetterSqlite3 from 'better-sqlite3';
import {
	Kysely,
	PostgresDialect,
	SqliteDialect,
	sql,
	type Generated,
	type SqliteDatabase,
	type PostgresPool,
	type PostgresPoolClient,
} from 'kysely';
import type { Pool as PgPool } from 'pg';

export interface AccountRow {
	id: string;
	/** customer | owner */
	kind: string;
	customer_id: string | null;
	/** 1: debits may never exceed posted credits (a customer's wallet). Enforced by a CHECK. */
	limit_debits: number;
	debits_pending: number;
	debits_posted: number;
	credits_pending: number;
	credits_posted: number;
	created_at: string;
}

/** One transfer = one debit entry + one credit entry of the same amount (balanced by construction). */
export interface TransferRow {
	seq: Generated<number>;
	id: string;
	debit_account: string;
	credit_account: string;
	amount: number;
	/** posted | pending | post_pending | void_pending */
	kind: string;
	/** for post_pending / void_pending: the hold it resolves (UNIQUE: a hold resolves once) */
	pending_id: string | null;
	/** the movement this transfer belongs to (a movement may span several transfers) */
	movement: string;
	reason: string;
	reference: string;
	note: string | null;
	created_at: string;
}

export interface PaymentRow {
	provider: string;
	reference: string;
	customer_id: string | null;
	amount: number;
	fee: number;
	/** credited | parked */
	status: string;
	account_number: string | null;
	paid_at: string | null;
	created_at: string;
}

export interface CustomerRow {
	id: string;
	name: string;
	created_at: string;
}

export interface VirtualAccountRow {
	provider: string;
	account_number: string;
	customer_id: string;
	/** the provider's own reference for the account (Monnify accountReference, Paystack customer code) */
	provider_ref: string;
	bank_name: string | null;
	created_at: string;
}

export interface OrderRow {
	id: string;
	customer_id: string;
	/** the purchase request as JSON, exactly as given (for resolving an unclear outcome later) */
	request: string;
	price: number;
	cost: number;
	sent_at: string | null;
	/**
	 * the customer_ref the purchase carries, written with the hold (before the POST): after a crash the
	 * follower passes it to reconcile, and a record carrying it is proven this order's. NULL: none chosen.
	 */
	customer_ref: string | null;
	/** the vendor's record once known */
	vendor_product: string | null;
	vendor_id: number | null;
	/** held | unknown | settled | released | refunded */
	state: string;
	created_at: string;
}

/** A seller's price rule (store/prices.ts): one per (product, scope, tier). */
export interface PriceRuleRow {
	/** data | airtime | cable | electricity | exam_pin | recharge_card | sms | * (every product) */
	product: string;
	/** '' (the whole product), 'type:<plan type>' (e.g. 'type:MTN SME') or 'plan:<id>' */
	scope: string;
	/** regular | reseller */
	tier: string;
	/** percent markup on the vendor's cost as an exact decimal string ("5", "2.5"), or null */
	percent: string | null;
	/** fixed markup in kobo */
	fixed: number;
	updated_by: string | null;
	updated_at: string;
}

/** What the shop knows of a customer beyond the ledger: their @username (for lookups) and price tier. */
export interface CustomerProfileRow {
	customer_id: string;
	username: string | null;
	tier: string;
	updated_at: string;
}

/** an owner alert sent once per crossing (store/alerts.ts): 1 = armed, 0 = fired and not yet cleared */
export interface AlertRow {
	key: string;
	armed: number;
	changed_at: string;
}

export interface StoreTables {
	orders: OrderRow;
	price_rules: PriceRuleRow;
	customer_profiles: CustomerProfileRow;
	store_alerts: AlertRow;
	accounts: AccountRow;
	transfers: TransferRow;
	payments: PaymentRow;
	customers: CustomerRow;
	virtual_accounts: VirtualAccountRow;
}

export type StoreDb = Kysely<StoreTables>;
export type Dialect = 'sqlite' | 'postgres';

export interface OpenOptions {
	/** postgres://… → Postgres; otherwise a SQLite file path (default ':memory:'). */
	databaseUrl?: string;
	sqlitePath?: string;
}

export interface OpenedDb {
	db: StoreDb;
	dialect: Dialect;
	close(): Promise<void>;
}

/** Opens (and migrates) the store database. Never logs the URL: it may carry a password. */
export async function openStoreDb(opts: OpenOptions = {}): Promise<OpenedDb> {
	const url = opts.databaseUrl;
	let db: StoreDb;
	let dialect: Dialect;
	if (url && /^postgres(ql)?:\/\//i.test(url)) {
		const { Pool, types } = await import('pg');
		// bigint columns as JS numbers: kobo amounts stay far below 2^53
		const getTypeParser = ((oid: number, format?: string) =>
			oid === 20 ? (v: string) => Number(v) : types.getTypeParser(oid, format as 'text')) as typeof types.getTypeParser;
		const pool = new Pool({ connectionString: url, max: 10, types: { getTypeParser } });
		db = new Kysely<StoreTables>({ dialect: new PostgresDialect({ pool: namedStatements(pool) }) });
		dialect = 'postgres';
	} else {
		return openSqlite(opts.sqlitePath ?? ':memory:');
	}
	await migrate(db, dialect);
	return { db, dialect, close: () => db.destroy() };
}

/**
 * better-sqlite3 is synchronous: two connections to one file in one process would block the event loop on
 * each other's lock. So a process shares one connection per file (Kysely runs its transactions one at a
 * time on it); other processes wait on the file lock (busy_timeout), which is what several instances do.
 */
const sqliteShared = new Map<string, { db: StoreDb; users: number }>();

async function openSqlite(file: string): Promise<OpenedDb> {
	const key = file === ':memory:' ? `:memory:${Math.random()}` : (await import('node:path')).resolve(file);
	let entry = sqliteShared.get(key);
	if (!entry) {
		const { default: Database } = await import('better-sqlite3');
		const conn = new Database(file);
		conn.pragma('journal_mode = WAL');
		conn.pragma('busy_timeout = 10000');
		const db = new Kysely<StoreTables>({ dialect: new SqliteDialect({ database: preparedOnce(conn) }) });
		await migrate(db, 'sqlite');
		entry = { db, users: 0 };
		sqliteShared.set(key, entry);
	}
	entry.users++;
	const e = entry;
	let closed = false;
	return {
		db: e.db,
		dialect: 'sqlite',
		async close() {
			if (closed) return;
			closed = true;
			if (--e.users === 0) {
				sqliteShared.delete(key);
				await e.db.destroy();
			}
		},
	};
}

/** How many distinct SQL texts keep their prepared statement (the store has a few dozen). */
const STATEMENT_CACHE = 256;

/**
 * Kysely's SQLite driver prepares every query anew (SQLite parses and plans it each time); the store runs
 * the same few dozen texts over and over, so each keeps its prepared statement. Safe because better-sqlite3
 * runs a statement to the end before returning (the store never streams a query, which would hold one open).
 */
function preparedOnce(conn: BetterSqlite3.Database): SqliteDatabase {
	const cache = new Map<string, BetterSqlite3.Statement>();
	return {
		close: () => conn.close(),
		prepare(text: string) {
			let stmt = cache.get(text);
			if (!stmt) {
				if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
				stmt = conn.prepare(text);
				cache.set(text, stmt);
			}
			return stmt;
		},
	};
}

/**
 * Postgres parses and plans every query Kysely sends (pg's unnamed statements); the store sends the same
 * few dozen texts over and over, so each query with parameters goes as a named statement, which each
 * connection prepares once (pg keeps track per connection). Past STATEMENT_CACHE texts, the rest go unnamed.
 * Statements without parameters (begin, commit, the schema) stay unnamed, and so does any text with a `*`:
 * a prepared `select *` fails ("cached plan must not change result type") once a newer instance adds a
 * column, which a rolling upgrade does while older instances still run.
 */
function namedStatements(pool: PgPool): PostgresPool {
	const names = new Map<string, string>();
	const nameOf = (text: string): string | undefined => {
		let name = names.get(text);
		if (name === undefined && names.size < STATEMENT_CACHE) names.set(text, (name = `vtu_${names.size}`));
		return name;
	};
	return {
		end: () => pool.end(),
		async connect() {
			const client = await pool.connect();
			const query = (text: string, parameters: readonly unknown[]) => {
				const values = parameters as unknown[]; // Kysely passes a fresh copy
				const name = values.length > 0 && !text.includes('*') ? nameOf(text) : undefined;
				return name === undefined ? client.query(text, values) : client.query({ name, text, values });
			};
			// the cursor form of query() is for streaming, which the store never does
			return { query, release: (destroy?: boolean) => client.release(destroy) } as unknown as PostgresPoolClient;
		},
	};
}

async function migrate(db: StoreDb, dialect: Dialect): Promise<void> {
	const big = dialect === 'postgres' ? 'bigint' : 'integer';
	const seq = dialect === 'postgres' ? sql`bigserial primary key` : sql`integer primary key autoincrement`;
	const n = sql.raw(big);
	// one statement per call: Postgres's extended protocol refuses several at once
	const ddl = [
		sql`create table if not exists customers (id text primary key, name text not null, created_at text not null)`,
		sql`create table if not exists accounts (
      id text primary key, kind text not null, customer_id text references customers(id),
      limit_debits integer not null default 0,
      debits_pending ${n} not null default 0, debits_posted ${n} not null default 0,
      credits_pending ${n} not null default 0, credits_posted ${n} not null default 0,
      created_at text not null,
      check (debits_pending >= 0 and debits_posted >= 0 and credits_pending >= 0 and credits_posted >= 0),
      check (limit_debits = 0 or debits_pending + debits_posted <= credits_posted))`,
		sql`create table if not exists transfers (
      seq ${seq}, id text not null unique,
      debit_account text not null references accounts(id), credit_account text not null references accounts(id),
      amount ${n} not null check (amount > 0), kind text not null,
      pending_id text unique references transfers(id),
      movement text not null, reason text not null, reference text not null, note text, created_at text not null,
      check (debit_account <> credit_account),
      check (kind in ('posted','pending','post_pending','void_pending')),
      check ((kind in ('post_pending','void_pending')) = (pending_id is not null)))`,
		sql`create index if not exists transfers_movement on transfers(movement)`,
		sql`create index if not exists transfers_debit on transfers(debit_account)`,
		sql`create index if not exists transfers_credit on transfers(credit_account)`,
		sql`create table if not exists payments (
      provider text not null, reference text not null, customer_id text, amount ${n} not null check (amount > 0),
      fee ${n} not null check (fee >= 0 and fee <= amount), status text not null, account_number text,
      paid_at text, created_at text not null, primary key (provider, reference))`,
		sql`create table if not exists virtual_accounts (
      provider text not null, account_number text not null, customer_id text not null references customers(id),
      provider_ref text not null, bank_name text, created_at text not null, primary key (provider, account_number))`,
		sql`create table if not exists orders (
      id text primary key, customer_id text not null references customers(id), request text not null,
      price ${n} not null, cost ${n} not null, sent_at text, vendor_product text, vendor_id ${n}, state text not null,
      created_at text not null, customer_ref text)`,
		// a vendor record belongs to one order at most, whichever instance adopts it
		sql`create unique index if not exists orders_vendor_record on orders(vendor_product, vendor_id)`,
		// the seller's prices and customer tiers (store/prices.ts)
		sql`create table if not exists price_rules (
      product text not null, scope text not null, tier text not null, percent text, fixed ${n} not null default 0,
      updated_by text, updated_at text not null, primary key (product, scope, tier), check (fixed >= 0))`,
		sql`create table if not exists customer_profiles (
      customer_id text primary key references customers(id), username text, tier text not null default 'regular',
      updated_at text not null)`,
		sql`create index if not exists customer_profiles_username on customer_profiles(username)`,
		// reports read the ledger by time
		sql`create index if not exists transfers_created on transfers(created_at)`,
		sql`create table if not exists store_alerts (
      key text primary key, armed integer not null, changed_at text not null)`,
	];
	if (dialect === 'sqlite') {
		for (const stmt of ddl) await stmt.execute(db);
		// a file made before orders had customer_ref (SQLite has no ADD COLUMN IF NOT EXISTS)
		const cols = await sql<{ name: string }>`pragma table_info(orders)`.execute(db);
		if (!cols.rows.some((c) => c.name === 'customer_ref'))
			await sql`alter table orders add column customer_ref text`.execute(db).catch((e: unknown) => {
				// another process on the same file added it between the two statements
				if (!/duplicate column/i.test(String((e as Error)?.message))) throw e;
			});
		return;
	}
	// two instances starting at once: CREATE … IF NOT EXISTS still races on Postgres's catalog, so one at a time
	await db.transaction().execute(async (tx) => {
		await sql`select pg_advisory_xact_lock(210021)`.execute(tx);
		for (const stmt of ddl) await stmt.execute(tx);
		await sql`alter table orders add column if not exists customer_ref text`.execute(tx);
	});
}
