/**
 * The flow messages whose buttons are still tappable, per chat, so /cancel (or another command
 * that ends the flow) can take the buttons away instead of leaving them to answer "expired".
 * Kept in the SQLite `kv` table: a restarted or second instance can clear them too.
 */
import type { Api } from 'grammy';
import type { DB } from '../db';
import type { Logger } from '../logger';
import { SqliteStorage } from '../storage';

export class LiveKeyboards {
	private readonly store: SqliteStorage<number[]>;

	constructor(db: DB) {
		this.store = new SqliteStorage<number[]>(db, 'kb:');
	}

	track(chatId: number, messageId: number): void {
		const ids = this.store.read(String(chatId)) ?? [];
		if (!ids.includes(messageId)) this.store.write(String(chatId), [...ids.slice(-9), messageId]);
	}

	/** The flow ended by itself (each step already removed its buttons). */
	forget(chatId: number): void {
		this.store.delete(String(chatId));
	}

	/** The flow was abandoned: remove the buttons of its messages. */
	async clear(chatId: number, api: Api, logger: Logger): Promise<void> {
		const ids = this.store.read(String(chatId)) ?? [];
		this.store.delete(String(chatId));
		for (const id of ids) {
			try {
				await api.editMessageReplyMarkup(chatId, id, { reply_markup: { inline_keyboard: [] } });
			} catch (e) {
				// Already without buttons ("message is not modified") or deleted.
				logger.debug('keyboard not cleared', {
					chat: chatId,
					message: id,
					err: e instanceof Error ? e.message : String(e),
				});
			}
		}
	}
}
