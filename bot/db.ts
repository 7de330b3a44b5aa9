/**
 * The bot's SQLite database (better-sqlite3): order journal, update dedupe, allowlist,
 * PINs and the key/value store (`kv`) behind conversation storage, the PIN gate and each user's language.
 * One file, WAL mode.
 */
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Which build of better-sqlite3 to load (both have the same API). Node 24 changed node::ObjectWrap so
 * that 12.x, built on V8's own ABI, aborts the process when a statement is collected outside a Node
 * context ("Assertion failed: (env) != nullptr", seen in our suite on Node 24.21); 13.x is built on
 * Node-API and ships prebuilt, but needs Node 22+ (it crashes on Node 20). So Node 22+ loads 13.x and
 * Node 20 the 12.x build.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the choice is made at run time */
const Database: typeof BetterSqlite3 =
	Number(process.versions.node.split('.')[0]) >= 22 ? require('better-sqlite3-napi') : require('better-sqlite3');
/* eslint-enable @typescript-eslint/no-require-imports */

export type DB = BetterSqlite3.Database;

const MIGRATIONS: string[] = [
	// 1: initial schema
	`
  CREATE TABLE orders (
    id            TEXT PRIMARY KEY,
    user_id       INTEGER NOT NULL,
    chat_id       INTEGER NOT NULL,
    product       TEXT NOT NULL,
    request       TEXT NOT NULL,
    description   TEXT NOT NULL,
    recipient     TEXT,
    amount_kobo   INTEGER NOT NULL,
    state         TEXT NOT NULL,
    ident         TEXT,
    vendor_id     INTEGER,
    charged_kobo  INTEGER,
    result        TEXT,
    error_code    TEXT,
    error_message TEXT,
    created_at    INTEGER NOT NULL,
    sent_at       INTEGER,
    final_at      INTEGER,
    updated_at    INTEGER NOT NULL,
    notified_state TEXT,
    checked_at    INTEGER
  );
  CREATE INDEX orders_user_created ON orders(user_id, created_at);
  CREATE INDEX orders_state ON orders(state);
  CREATE INDEX orders_ident ON orders(ident);
  CREATE TABLE seen_updates (update_id INTEGER PRIMARY KEY, at INTEGER NOT NULL);
  CREATE INDEX seen_updates_at ON seen_updates(at);
  CREATE TABLE users (
    user_id    INTEGER PRIMARY KEY,
    allowed    INTEGER NOT NULL,
    changed_by INTEGER,
    changed_at INTEGER NOT NULL
  );
  CREATE TABLE pins (
    user_id      INTEGER PRIMARY KEY,
    hash         TEXT NOT NULL,
    salt         TEXT NOT NULL,
    failures     INTEGER NOT NULL DEFAULT 0,
    locked_until INTEGER,
    updated_at   INTEGER NOT NULL
  );
  CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at INTEGER NOT NULL);
  `,
	// 2: names of the people who wrote to the bot, so admins see names, not bare IDs
	`
  CREATE TABLE profiles (user_id INTEGER PRIMARY KEY, name TEXT NOT NULL, username TEXT, seen_at INTEGER NOT NULL);
  `,
	// 3: when an unclear (`unknown`) order is checked next: no earlier than the client says a proven answer is possible
	`
  ALTER TABLE orders ADD COLUMN recheck_at INTEGER;
  CREATE INDEX orders_state_recheck ON orders(state, recheck_at);
  `,
	// 4: the customer_ref an unclear order's POST carried (NULL: not known, '': sent without one), passed back
	// to reconcile: on a site that echoes it, it proves which record is this order's
	`
  ALTER TABLE orders ADD COLUMN customer_ref TEXT;
  `,
	// 5: the detail the vendor refused by name when it refused the purchase itself (invalid_input's field, e.g.
	// "phone"): "Try again" asks that detail again
	`
  ALTER TABLE orders ADD COLUMN error_field TEXT;
  `,
	// 6: the language each user picked with /language (none: the default locale)
	`
  CREATE TABLE user_locales (user_id INTEGER PRIMARY KEY, locale TEXT NOT NULL, changed_at INTEGER NOT NULL);
  `,
	// 7: the language picks move to the key/value table, where the PIN gate keeps its state too (language.ts
	// `localeKey`: `locale:<user id>`, the locale code as JSON); user_locales goes
	`
  INSERT INTO kv (key, value, updated_at)
    SELECT 'locale:' || user_id, json_quote(locale), changed_at FROM user_locales WHERE true
    ON CONFLICT(key) DO NOTHING;
  DROP TABLE user_locales;
  `,
];

/** Open (creating if needed) and migrate the database (`upTo`: see migrate). `:memory:` works for tests. */
export function openDatabase(path: string, upTo?: number): DB {
	const db = new Database(path);
	db.pragma('busy_timeout = 5000'); // first: switching to WAL waits, too, for another instance opening the file
	db.pragma('journal_mode = WAL');
	db.pragma('synchronous = NORMAL');
	db.pragma('foreign_keys = ON');
	migrate(db, upTo);
	return db;
}

/**
 * Apply the migrations the file lacks. The version is read inside each immediate (write-locked) transaction:
 * several instances starting at once on a fresh file (bot/README "Running several instances") each wait for
 * the lock and find the schema another one has just created, instead of creating it twice. `upTo` stops at an
 * older version (tests: a file as an older bot left it).
 */
export function migrate(db: DB, upTo = MIGRATIONS.length): void {
	const step = db.transaction((): boolean => {
		const v = db.pragma('user_version', { simple: true }) as number;
		if (v >= Math.min(upTo, MIGRATIONS.length)) return false;
		db.exec(MIGRATIONS[v]);
		db.pragma(`user_version = ${v + 1}`);
		return true;
	});
	while (step.immediate()) {
		/* next migration */
	}
}
