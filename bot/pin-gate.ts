/**
 * PIN entry that never lets the PIN reach conversation storage.
 *
 * Conversations v2 persist every update they wait for (it is a replay engine), so a PIN typed
 * into a conversation would sit in storage as plain text. Instead a conversation *arms* the gate
 * (`expect`), and this middleware, installed before the conversations, takes the user's next text
 * message: it checks the PIN (scrypt), deletes the message from the chat, writes the verdict to
 * SQLite keyed by update_id, and hands the conversation the same update with the text replaced by
 * a placeholder. The conversation then reads the verdict through `conversation.external`.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, NextFunction } from 'grammy';
import type { DB } from './db';
import { hashPin, isValidPinFormat, type Pins } from './access';
import type { Logger } from './logger';
import { SqliteStorage } from './storage';

export type PinMode = 'verify' | 'current' | 'new' | 'repeat';

export type PinVerdict =
	| { kind: 'ok' }
	| { kind: 'wrong'; attemptsLeft: number }
	| { kind: 'locked'; until: number }
	| { kind: 'no_pin' }
	| { kind: 'bad_format' }
	| { kind: 'mismatch' }
	| { kind: 'none' };

export const PIN_PLACEHOLDER = '•••• (PIN hidden)';

interface Armed {
	/** 'idle' = not waiting for a PIN message (but keeping a candidate between 'new' and 'repeat'). */
	mode: PinMode | 'idle';
	/** Temporary scrypt of the new PIN while waiting for the repeat. */
	candidate?: { hash: string; salt: string };
	/** 'verify': the order the PIN authorises. Once it is no longer waiting (a restart settled it), no text is a PIN. */
	orderId?: string;
}

export class PinGate {
	private readonly stmts;
	private readonly kv: SqliteStorage<unknown>;

	constructor(
		db: DB,
		private readonly pins: Pins,
		private readonly logger: Logger,
	) {
		// the kv table, with JSON values, as the conversations' storage reads and writes it
		this.kv = new SqliteStorage<unknown>(db);
		this.stmts = { waiting: db.prepare(`SELECT 1 FROM orders WHERE id = ? AND state = 'created'`) };
	}

	private armedKey(userId: number) {
		return `pin:armed:${userId}`;
	}

	private verdictKey(userId: number, updateId: number) {
		return `pin:verdict:${userId}:${updateId}`;
	}

	/** Arm the gate: the user's next text message is a PIN for `mode`. Keeps a pending candidate for 'repeat'. */
	expect(userId: number, mode: PinMode, orderId?: string): void {
		const prev = this.readArmed(userId);
		const armed: Armed = {
			mode,
			...(mode === 'repeat' && prev?.candidate ? { candidate: prev.candidate } : {}),
			...(orderId ? { orderId } : {}),
		};
		this.kv.write(this.armedKey(userId), armed);
	}

	disarm(userId: number): void {
		this.kv.delete(this.armedKey(userId));
	}

	isArmed(userId: number): boolean {
		const a = this.readArmed(userId);
		return !!a && a.mode !== 'idle';
	}

	private readArmed(userId: number): Armed | undefined {
		return this.kv.read(this.armedKey(userId)) as Armed | undefined;
	}

	/** The verdict for the PIN message of `updateId` (read once by the conversation). */
	takeVerdict(userId: number, updateId: number): PinVerdict {
		const key = this.verdictKey(userId, updateId);
		const verdict = this.kv.read(key) as PinVerdict | undefined;
		if (!verdict) return { kind: 'none' };
		this.kv.delete(key);
		return verdict;
	}

	private judge(userId: number, armed: Armed, pin: string): PinVerdict {
		switch (armed.mode) {
			case 'idle':
				return { kind: 'none' };
			case 'verify':
			case 'current': {
				const r = this.pins.verify(userId, pin);
				if (r.ok) return { kind: 'ok' };
				if (r.reason === 'wrong') return { kind: 'wrong', attemptsLeft: r.attemptsLeft };
				if (r.reason === 'locked') return { kind: 'locked', until: r.until };
				return { kind: 'no_pin' };
			}
			case 'new': {
				if (!isValidPinFormat(pin)) return { kind: 'bad_format' };
				const salt = randomBytes(16);
				armed.candidate = { hash: hashPin(pin, salt).toString('hex'), salt: salt.toString('hex') };
				this.kv.write(this.armedKey(userId), armed);
				return { kind: 'ok' };
			}
			case 'repeat': {
				const c = armed.candidate;
				if (!c) return { kind: 'mismatch' };
				const got = hashPin(pin, Buffer.from(c.salt, 'hex'));
				const exp = Buffer.from(c.hash, 'hex');
				if (got.length === exp.length && timingSafeEqual(got, exp)) {
					this.pins.set(userId, pin);
					return { kind: 'ok' };
				}
				return { kind: 'mismatch' };
			}
		}
	}

	/** Middleware: install after the allowlist and before the conversations. */
	middleware() {
		return async (ctx: Context, next: NextFunction): Promise<void> => {
			const userId = ctx.from?.id;
			const msg = ctx.message;
			if (userId === undefined || !msg || typeof msg.text !== 'string' || msg.text.startsWith('/')) return next();
			const armed = this.readArmed(userId);
			if (!armed || armed.mode === 'idle') return next();
			if (armed.orderId && !this.stmts.waiting.get(armed.orderId)) {
				this.disarm(userId); // its order was settled or cancelled without the PIN: this text is no attempt
				return next();
			}
			const pin = msg.text.trim();
			const verdict = this.judge(userId, armed, pin);
			this.kv.write(this.verdictKey(userId, ctx.update.update_id), verdict);
			// One message per arming: the conversation re-arms the gate when it wants another PIN.
			const after = this.readArmed(userId);
			if (after?.candidate && armed.mode === 'new') {
				this.kv.write(this.armedKey(userId), { mode: 'idle', candidate: after.candidate });
			} else this.disarm(userId);
			// Scrub the PIN from this update before anything else (conversation storage, logs) sees it.
			(msg as { text: string }).text = PIN_PLACEHOLDER;
			delete (msg as { entities?: unknown }).entities;
			try {
				await ctx.api.deleteMessage(msg.chat.id, msg.message_id);
			} catch (e) {
				this.logger.warn('could not delete PIN message', { chat: msg.chat.id, err: e });
			}
			await next();
		};
	}
}
