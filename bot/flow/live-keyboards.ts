/**
 * The flow messages whose buttons are still tappable, per chat, so /cancel (or another command
 * that ends the flow) can take the buttons away instead of leaving them to answer "expired".
 * Kept in the SQLite `kv` table: a restarted or second instance can clear them too.
 */
import type { Api } from 'grammy';
import type { DB } from '../db';
import type { Logger } from '../logger';
import { SqliteStorage } from '../storage';

/** Most message ids kept per chat (a flow has a few messages with buttons). */
const KEEP = 10;
const PREFIX = 'kb:';

export class LiveKeyboards {
  private readonly store: SqliteStorage<number[]>;
  private readonly append;

  constructor(db: DB) {
    this.store = new SqliteStorage<number[]>(db, PREFIX);
    // One statement (no read first): the id goes last, after the newest KEEP-1 other ids.
    this.append = db.prepare(
      `INSERT INTO kv (key, value, updated_at) VALUES (@key, json_array(@id), @now)
       ON CONFLICT(key) DO UPDATE SET updated_at = excluded.updated_at, value = json_insert(
         (SELECT json_group_array(value) FROM
           (SELECT value FROM (SELECT value, key AS i FROM json_each(kv.value) WHERE value <> @id ORDER BY i DESC LIMIT ${KEEP - 1}) ORDER BY i)),
         '$[#]', @id)`,
    );
  }

  track(chatId: number, messageId: number): void {
    this.append.run({ key: `${PREFIX}${chatId}`, id: messageId, now: Date.now() });
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
        logger.debug('keyboard not cleared', { chat: chatId, message: id, err: e instanceof Error ? e.message : String(e) });
      }
    }
  }
}
