/**
 * Who may use the bot (allowlist) and the optional purchase PIN.
 *
 * Allowed = admin, or a persisted /allow, or listed in BOT_ALLOWED_IDS and not persisted /deny.
 * PINs are stored as scrypt(pin, per-user random salt); a lockout follows N failures.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { DB } from './db';
import type { Clock } from './journal';
import { systemClock } from './journal';

export class Access {
	private readonly admins: Set<number>;
	private readonly envAllowed: Set<number>;
	private readonly stmts;

	constructor(
		readonly db: DB,
		opts: { adminIds: number[]; allowedIds: number[] },
		private readonly clock: Clock = systemClock,
	) {
		this.admins = new Set(opts.adminIds);
		this.envAllowed = new Set(opts.allowedIds);
		this.stmts = {
			get: db.prepare(`SELECT allowed FROM users WHERE user_id = ?`),
			set: db.prepare(
				`INSERT INTO users (user_id, allowed, changed_by, changed_at) VALUES (@user_id, @allowed, @by, @now)
         ON CONFLICT(user_id) DO UPDATE SET allowed = excluded.allowed, changed_by = excluded.changed_by,
           changed_at = excluded.changed_at`,
			),
			list: db.prepare(`SELECT user_id FROM users WHERE allowed = 1 ORDER BY user_id`),
			remember: db.prepare(
				`INSERT INTO profiles (user_id, name, username, seen_at) VALUES (@user_id, @name, @username, @now)
         ON CONFLICT(user_id) DO UPDATE SET name = excluded.name, username = excluded.username,
           seen_at = excluded.seen_at`,
			),
			profile: db.prepare(`SELECT name, username FROM profiles WHERE user_id = ?`),
			// a stranger's request for access, in the shared `kv` table: the first instance to write it alerts
			request: db.prepare(`INSERT INTO kv (key, value, updated_at) VALUES (?, '', ?) ON CONFLICT(key) DO NOTHING`),
			requests: db.prepare(`SELECT key FROM kv WHERE key >= 'access-request:' AND key < 'access-request;'`),
			denied: db.prepare(`SELECT 1 FROM users WHERE user_id = ? AND allowed = 0`),
		};
	}

	/** Names already written, so an unchanged name costs no write per update. */
	private readonly known = new Map<number, string>();

	/** Keep the user's name (first + last name and @username) for the admin's lists. */
	remember(user: { id: number; first_name: string; last_name?: string; username?: string }): void {
		const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
		const key = `${name}\u0000${user.username ?? ''}`;
		if (this.known.get(user.id) === key) return;
		this.stmts.remember.run({ user_id: user.id, name, username: user.username ?? null, now: this.clock.now() });
		this.known.set(user.id, key);
	}

	/** "Ada Obi (@ada, 5001)", or the bare ID when the user never wrote to the bot. */
	describe(userId: number): string {
		const p = this.stmts.profile.get(userId) as { name: string; username: string | null } | undefined;
		if (!p) return `${userId}`;
		return `${p.name} (${p.username ? `@${p.username}, ` : ''}${userId})`;
	}

	isAdmin(userId: number | undefined): boolean {
		return userId !== undefined && this.admins.has(userId);
	}

	isAllowed(userId: number | undefined): boolean {
		if (userId === undefined) return false;
		if (this.admins.has(userId)) return true;
		const row = this.stmts.get.get(userId) as { allowed: number } | undefined;
		if (row) return row.allowed === 1;
		return this.envAllowed.has(userId);
	}

	allow(userId: number, by: number): void {
		this.stmts.set.run({ user_id: userId, allowed: 1, by, now: this.clock.now() });
	}

	/** Returns false for admins (they cannot be denied from chat). */
	deny(userId: number, by: number): boolean {
		if (this.admins.has(userId)) return false;
		this.stmts.set.run({ user_id: userId, allowed: 0, by, now: this.clock.now() });
		return true;
	}

	get adminIds(): number[] {
		return [...this.admins];
	}

	/** A stranger wrote to the bot: true the first time (whichever instance sees it first). */
	requestAccess(userId: number): boolean {
		return this.claimOnce(`access-request:${userId}`);
	}

	/** True the first time `key` is claimed, by any instance on this file (for alerts sent once). */
	claimOnce(key: string): boolean {
		return this.stmts.request.run(key, this.clock.now()).changes === 1;
	}

	/** Strangers who asked and are neither allowed nor denied yet. */
	pendingRequests(): number[] {
		return (this.stmts.requests.all() as { key: string }[])
			.map((r) => Number(r.key.slice('access-request:'.length)))
			.filter((id) => Number.isSafeInteger(id) && !this.isAllowed(id) && !this.stmts.denied.get(id))
			.sort((a, b) => a - b);
	}

	listAllowed(): number[] {
		const ids = new Set<number>([...this.admins, ...this.envAllowed]);
		for (const r of this.stmts.list.all() as { user_id: number }[]) ids.add(r.user_id);
		for (const id of [...ids]) if (!this.isAllowed(id)) ids.delete(id);
		return [...ids].sort((a, b) => a - b);
	}
}

export type PinCheck =
	| { ok: true }
	| { ok: false; reason: 'no_pin' }
	| { ok: false; reason: 'wrong'; attemptsLeft: number }
	| { ok: false; reason: 'locked'; until: number };

const SCRYPT = { N: 16384, r: 8, p: 1 } as const;

export function hashPin(pin: string, salt: Buffer): Buffer {
	return scryptSync(pin, salt, 32, SCRYPT);
}

export function isValidPinFormat(pin: string): boolean {
	return /^\d{4,6}$/.test(pin);
}

export class Pins {
	private readonly stmts;

	constructor(
		readonly db: DB,
		private readonly opts: { maxFailures: number; lockMs: number },
		private readonly clock: Clock = systemClock,
	) {
		this.stmts = {
			get: db.prepare(`SELECT * FROM pins WHERE user_id = ?`),
			set: db.prepare(
				`INSERT INTO pins (user_id, hash, salt, failures, locked_until, updated_at)
         VALUES (@user_id, @hash, @salt, 0, NULL, @now)
         ON CONFLICT(user_id) DO UPDATE SET hash = excluded.hash, salt = excluded.salt, failures = 0,
           locked_until = NULL, updated_at = excluded.updated_at`,
			),
			fail: db.prepare(
				`UPDATE pins SET failures = @failures, locked_until = @locked_until, updated_at = @now WHERE user_id = @user_id`,
			),
			ok: db.prepare(`UPDATE pins SET failures = 0, locked_until = NULL, updated_at = @now WHERE user_id = @user_id`),
		};
	}

	has(userId: number): boolean {
		return !!this.stmts.get.get(userId);
	}

	set(userId: number, pin: string): void {
		if (!isValidPinFormat(pin)) throw new Error('A PIN is 4 to 6 digits.');
		const salt = randomBytes(16);
		this.stmts.set.run({
			user_id: userId,
			hash: hashPin(pin, salt).toString('hex'),
			salt: salt.toString('hex'),
			now: this.clock.now(),
		});
	}

	/** Admin reset of a lockout: failures forgotten, the PIN itself unchanged. False when the user has no PIN. */
	/** Forget a user's PIN (and its lockout): they set a new one with /setpin. */
	reset(userId: number): boolean {
		return this.db.prepare(`DELETE FROM pins WHERE user_id = ?`).run(userId).changes === 1;
	}

	unlock(userId: number): boolean {
		return this.stmts.ok.run({ user_id: userId, now: this.clock.now() }).changes === 1;
	}

	lockedUntil(userId: number): number | null {
		const row = this.stmts.get.get(userId) as { locked_until: number | null } | undefined;
		const now = this.clock.now();
		return row?.locked_until && row.locked_until > now ? row.locked_until : null;
	}

	verify(userId: number, pin: string): PinCheck {
		const row = this.stmts.get.get(userId) as
			| { hash: string; salt: string; failures: number; locked_until: number | null }
			| undefined;
		if (!row) return { ok: false, reason: 'no_pin' };
		const now = this.clock.now();
		if (row.locked_until && row.locked_until > now) return { ok: false, reason: 'locked', until: row.locked_until };
		const failuresBefore = row.locked_until ? 0 : row.failures; // a lock that has run out resets the count
		const expected = Buffer.from(row.hash, 'hex');
		const got = hashPin(pin, Buffer.from(row.salt, 'hex'));
		if (got.length === expected.length && timingSafeEqual(got, expected)) {
			this.stmts.ok.run({ user_id: userId, now });
			return { ok: true };
		}
		const failures = failuresBefore + 1;
		if (failures >= this.opts.maxFailures) {
			const until = now + this.opts.lockMs;
			this.stmts.fail.run({ user_id: userId, failures, locked_until: until, now });
			return { ok: false, reason: 'locked', until };
		}
		this.stmts.fail.run({ user_id: userId, failures, locked_until: null, now });
		return { ok: false, reason: 'wrong', attemptsLeft: this.opts.maxFailures - failures };
	}
}
