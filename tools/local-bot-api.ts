/**
 * A local Telegram Bot API on loopback (node:http), for grammY's `client.apiRoot`: the bot's tests
 * and `npm run bot:try` (a terminal chat with the bot) use it.
 *
 * Implements what the VTU bot uses: getMe, getUpdates (real long poll with offset, woken by new
 * updates), sendMessage, editMessageText, editMessageReplyMarkup, answerCallbackQuery,
 * deleteMessage, setMyCommands/getMyCommands/deleteMyCommands, sendChatAction, getFile plus the
 * file download route, setWebhook/deleteWebhook/getWebhookInfo. Every call is recorded.
 * Test helpers build realistic updates (commands, text, button taps, documents) and either queue
 * them for getUpdates or return them for `bot.handleUpdate`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UserFromGetMe } from 'grammy/types';

export interface RecordedCall {
	method: string;
	payload: Record<string, any>;
	/** Token the bot used (kept so tests can check it was right; never compare it to logs). */
	token: string;
	at: number;
	/** Result returned to the bot (e.g. the sent Message). */
	result?: any;
}

export interface FakeUser {
	id: number;
	first_name: string;
	username?: string;
}

interface StoredMessage {
	message_id: number;
	chat_id: number;
	from_bot: boolean;
	text?: string;
	reply_markup?: any;
	deleted?: boolean;
}

type Injected = { error_code: number; description: string; parameters?: Record<string, unknown> };

export class FakeTelegram {
	readonly calls: RecordedCall[] = [];
	/** getMe's answer, typed as grammY's UserFromGetMe so a new Bot API field shows up at type-check. */
	botInfo: UserFromGetMe = {
		id: 7000001,
		is_bot: true as const,
		first_name: 'VTU Test Bot',
		username: 'vtu_test_bot',
		can_join_groups: true,
		can_read_all_group_messages: false,
		supports_inline_queries: false,
		can_connect_to_business: false,
		has_main_web_app: false,
		has_topics_enabled: false,
		allows_users_to_create_topics: false,
		can_manage_bots: false,
		supports_join_request_queries: false,
	};
	/** Tokens accepted; empty = accept any. */
	acceptTokens = new Set<string>();

	private server?: http.Server;
	private port = 0;
	private nextUpdateId = 100_000;
	private nextMessageId = new Map<number, number>();
	private queue: any[] = [];
	private waiters = new Set<() => void>();
	private messages = new Map<string, StoredMessage>();
	/** The same messages per chat, in order (looking up a chat's buttons must not scan every chat). */
	private chatMessages = new Map<number, StoredMessage[]>();
	private files = new Map<string, { path: string; content: Buffer; name: string }>();
	private injected = new Map<string, Injected[]>();
	private callListeners = new Set<(call: RecordedCall) => void>();
	private nextCallbackId = 1;
	private closed = false;

	get apiRoot(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	async start(): Promise<this> {
		this.server = http.createServer((req, res) => void this.handle(req, res));
		// Keep idle connections open as Telegram does. (1 s made every Bot API call a new TCP connection:
		// Node's agent drops a socket whose server hint is `Keep-Alive: timeout=1`, one second ahead of it.)
		this.server.keepAliveTimeout = 60_000;
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
		this.port = (this.server.address() as AddressInfo).port;
		return this;
	}

	async close(): Promise<void> {
		this.closed = true;
		for (const w of [...this.waiters]) w();
		if (!this.server) return;
		(this.server as any).closeAllConnections?.();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
	}

	// ---------------------------------------------------------------- update builders

	private msgId(chatId: number): number {
		const n = (this.nextMessageId.get(chatId) ?? 0) + 1;
		this.nextMessageId.set(chatId, n);
		return n;
	}

	private baseMessage(user: FakeUser, extra: Record<string, unknown>) {
		const message_id = this.msgId(user.id);
		const m = {
			message_id,
			date: Math.floor(Date.now() / 1000),
			chat: { id: user.id, type: 'private', first_name: user.first_name, username: user.username },
			from: { id: user.id, is_bot: false, first_name: user.first_name, username: user.username },
			...extra,
		};
		this.store({ message_id, chat_id: user.id, from_bot: false, text: extra.text as string | undefined });
		return m;
	}

	textUpdate(user: FakeUser, text: string): any {
		const entities = text.startsWith('/')
			? [{ type: 'bot_command', offset: 0, length: text.split(/\s/)[0].length }]
			: undefined;
		return {
			update_id: this.nextUpdateId++,
			message: this.baseMessage(user, { text, ...(entities ? { entities } : {}) }),
		};
	}

	groupTextUpdate(user: FakeUser, groupId: number, text: string): any {
		const entities = text.startsWith('/')
			? [{ type: 'bot_command', offset: 0, length: text.split(/\s/)[0].length }]
			: undefined;
		const message_id = this.msgId(groupId);
		return {
			update_id: this.nextUpdateId++,
			message: {
				message_id,
				date: Math.floor(Date.now() / 1000),
				chat: { id: groupId, type: 'group', title: 'A group' },
				from: { id: user.id, is_bot: false, first_name: user.first_name },
				text,
				...(entities ? { entities } : {}),
			},
		};
	}

	documentUpdate(user: FakeUser, fileName: string, content: string | Buffer, mime = 'text/csv', caption?: string): any {
		const file_id = `file${this.files.size + 1}_${Math.random().toString(36).slice(2, 8)}`;
		const buf = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
		this.files.set(file_id, { path: `documents/${file_id}_${fileName}`, content: buf, name: fileName });
		return {
			update_id: this.nextUpdateId++,
			message: this.baseMessage(user, {
				document: {
					file_id,
					file_unique_id: `u${file_id}`,
					file_name: fileName,
					mime_type: mime,
					file_size: buf.length,
				},
				...(caption ? { caption } : {}),
			}),
		};
	}

	/** A tap on a button of one of the bot's messages. */
	callbackUpdate(user: FakeUser, messageId: number, data: string): any {
		const m = this.messages.get(`${user.id}:${messageId}`);
		return {
			update_id: this.nextUpdateId++,
			callback_query: {
				id: String(this.nextCallbackId++),
				from: { id: user.id, is_bot: false, first_name: user.first_name, username: user.username },
				chat_instance: `ci${user.id}`,
				data,
				message: {
					message_id: messageId,
					date: Math.floor(Date.now() / 1000),
					chat: { id: user.id, type: 'private', first_name: user.first_name },
					from: {
						id: this.botInfo.id,
						is_bot: true,
						first_name: this.botInfo.first_name,
						username: this.botInfo.username,
					},
					text: m?.text ?? '',
					...(m?.reply_markup ? { reply_markup: m.reply_markup } : {}),
				},
			},
		};
	}

	/** Same update again (same update_id): what Telegram does on webhook retries / polling replays. */
	enqueue(update: any): any {
		this.queue.push(update);
		for (const w of [...this.waiters]) w();
		return update;
	}

	sendText(user: FakeUser, text: string): any {
		return this.enqueue(this.textUpdate(user, text));
	}

	sendDocument(user: FakeUser, fileName: string, content: string | Buffer, mime?: string, caption?: string): any {
		return this.enqueue(this.documentUpdate(user, fileName, content, mime, caption));
	}

	/** Tap the button whose callback data or text matches, on the newest bot message that has it. */
	buttonUpdate(user: FakeUser, match: string | RegExp): any {
		const b = this.findButton(user.id, match);
		if (!b)
			throw new Error(
				`No button matching ${match} in chat ${user.id}. Buttons: ${JSON.stringify(this.buttons(user.id))}`,
			);
		return this.callbackUpdate(user, b.messageId, b.data);
	}

	press(user: FakeUser, match: string | RegExp): any {
		return this.enqueue(this.buttonUpdate(user, match));
	}

	// ---------------------------------------------------------------- inspection

	botMessages(chatId: number): StoredMessage[] {
		return (this.chatMessages.get(chatId) ?? []).filter((m) => m.from_bot);
	}

	/** Texts the bot sent to a chat (sendMessage + edits), in order. */
	textsTo(chatId: number): string[] {
		return this.calls
			.filter(
				(c) => (c.method === 'sendMessage' || c.method === 'editMessageText') && Number(c.payload.chat_id) === chatId,
			)
			.map((c) => String(c.payload.text));
	}

	lastText(chatId: number): string | undefined {
		const t = this.textsTo(chatId);
		return t[t.length - 1];
	}

	buttons(chatId: number): { messageId: number; text: string; data: string }[] {
		const out: { messageId: number; text: string; data: string }[] = [];
		for (const m of this.botMessages(chatId)) {
			if (m.deleted) continue;
			for (const row of m.reply_markup?.inline_keyboard ?? []) {
				for (const b of row)
					if (b.callback_data) out.push({ messageId: m.message_id, text: b.text, data: b.callback_data });
			}
		}
		return out;
	}

	findButton(chatId: number, match: string | RegExp) {
		const all = this.buttons(chatId).reverse();
		return all.find((b) =>
			typeof match === 'string' ? b.data === match || b.text === match : match.test(b.data) || match.test(b.text),
		);
	}

	/** Call `fn` with every call the bot makes from now on; returns the unsubscribe function. */
	onCall(fn: (call: RecordedCall) => void): () => void {
		this.callListeners.add(fn);
		return () => void this.callListeners.delete(fn);
	}

	callsOf(method: string): RecordedCall[] {
		return this.calls.filter((c) => c.method === method);
	}

	answers(): string[] {
		return this.callsOf('answerCallbackQuery').map((c) => String(c.payload.text ?? ''));
	}

	/** Wait until `pred` holds over the recorded calls. */
	async waitFor(pred: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
		if (pred()) return;
		await new Promise<void>((resolve, reject) => {
			const t = setTimeout(() => {
				this.callListeners.delete(check);
				reject(
					new Error(
						`Timed out waiting for ${what}. Last texts: ` +
							`${JSON.stringify(this.calls.slice(-5).map((c) => [c.method, c.payload.text ?? c.payload.chat_id]))}`,
					),
				);
			}, timeoutMs);
			const check = () => {
				if (pred()) {
					clearTimeout(t);
					this.callListeners.delete(check);
					resolve();
				}
			};
			this.callListeners.add(check);
		});
	}

	/** Wait for a text to `chatId` matching `re`, counting only calls after index `from`. */
	async waitForText(chatId: number, re: RegExp, timeoutMs = 10_000, from = 0): Promise<string> {
		let found: string | undefined;
		await this.waitFor(
			() => {
				const c = this.calls
					.slice(from)
					.find(
						(c) =>
							(c.method === 'sendMessage' || c.method === 'editMessageText') &&
							Number(c.payload.chat_id) === chatId &&
							re.test(String(c.payload.text)),
					);
				found = c ? String(c.payload.text) : undefined;
				return !!found;
			},
			timeoutMs,
			`text ${re} to ${chatId}`,
		);
		return found!;
	}

	/** All updates handed out by getUpdates have been confirmed (offset moved past them). */
	get pendingUpdates(): number {
		return this.queue.length;
	}

	/** Make the next `times` calls of `method` fail (e.g. 429 with retry_after, or 400). */
	failNext(method: string, error: Injected, times = 1): void {
		const list = this.injected.get(method) ?? [];
		for (let i = 0; i < times; i++) list.push(error);
		this.injected.set(method, list);
	}

	// ---------------------------------------------------------------- HTTP

	private async readBody(req: http.IncomingMessage): Promise<Record<string, any>> {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const raw = Buffer.concat(chunks).toString('utf8');
		const ct = String(req.headers['content-type'] ?? '');
		const url = new URL(req.url ?? '/', 'http://x');
		const q: Record<string, any> = Object.fromEntries(url.searchParams.entries());
		if (!raw) return q;
		if (ct.includes('application/json')) return { ...q, ...JSON.parse(raw) };
		if (ct.includes('application/x-www-form-urlencoded'))
			return { ...q, ...Object.fromEntries(new URLSearchParams(raw).entries()) };
		if (ct.includes('multipart/form-data')) {
			const boundary = /boundary=([^;]+)/.exec(ct)?.[1];
			const out: Record<string, any> = { ...q };
			if (boundary) {
				// a file part's header names it `name="<id>";filename=<name>` (grammY) or `; filename="<name>"`
				for (const part of raw.split(`--${boundary}`)) {
					// grammY writes a file part as `name="<id>";filename=<name>` (no space, no quotes)
					const m = /name="([^"]+)"(?:;\s*filename=(?:"[^"]*"|[^\r\n;]*))?\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*)\r\n$/.exec(
						part,
					);
					if (m) {
						try {
							out[m[1]] = JSON.parse(m[2]);
						} catch {
							out[m[1]] = m[2];
						}
					}
				}
			}
			return out;
		}
		return q;
	}

	private send(res: http.ServerResponse, status: number, body: unknown): void {
		const s = JSON.stringify(body);
		res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(s) });
		res.end(s);
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		try {
			const url = new URL(req.url ?? '/', 'http://x');
			const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
			if (file) {
				const f = [...this.files.values()].find((x) => x.path === decodeURIComponent(file[2]));
				if (!f || !this.tokenOk(file[1])) {
					res.writeHead(404).end('Not Found');
					return;
				}
				this.record({ method: '#download', payload: { file_path: f.path }, token: file[1], at: Date.now() });
				res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': f.content.length });
				res.end(f.content);
				return;
			}
			const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
			if (!m) return this.send(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
			const [, token, method] = m;
			if (!this.tokenOk(token)) return this.send(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
			const payload = await this.readBody(req);
			const call: RecordedCall = { method, payload, token, at: Date.now() };
			const inj = this.injected.get(method)?.shift();
			if (inj) {
				this.record(call);
				return this.send(res, inj.error_code, { ok: false, ...inj });
			}
			if (method === 'getUpdates') return await this.getUpdates(req, res, payload, call);
			const result = this.dispatch(method, payload);
			if (result === undefined) {
				this.record(call);
				return this.send(res, 404, {
					ok: false,
					error_code: 404,
					description: `Not Found: method ${method} not implemented by fake`,
				});
			}
			if (result instanceof Error) {
				this.record(call);
				return this.send(res, 400, { ok: false, error_code: 400, description: result.message });
			}
			call.result = result;
			this.record(call);
			this.send(res, 200, { ok: true, result });
		} catch (e) {
			this.send(res, 500, { ok: false, error_code: 500, description: `fake error: ${(e as Error).message}` });
		}
	}

	private tokenOk(token: string): boolean {
		return this.acceptTokens.size === 0 || this.acceptTokens.has(token);
	}

	private record(call: RecordedCall): void {
		this.calls.push(call);
		for (const l of [...this.callListeners]) l(call);
	}

	private async getUpdates(
		req: http.IncomingMessage,
		res: http.ServerResponse,
		p: Record<string, any>,
		call: RecordedCall,
	) {
		const offset = p.offset !== undefined ? Number(p.offset) : undefined;
		const limit = Math.max(1, Math.min(100, Number(p.limit ?? 100)));
		const timeoutS = Math.min(Number(p.timeout ?? 0), 30);
		if (offset !== undefined) this.queue = this.queue.filter((u) => u.update_id >= offset);
		const take = () => this.queue.filter((u) => offset === undefined || u.update_id >= offset).slice(0, limit);
		let updates = take();
		if (updates.length === 0 && timeoutS > 0 && !this.closed) {
			await new Promise<void>((resolve) => {
				const done = () => {
					clearTimeout(t);
					this.waiters.delete(done);
					req.socket.off('close', done);
					resolve();
				};
				const t = setTimeout(done, timeoutS * 1000);
				this.waiters.add(done);
				req.socket.on('close', done);
			});
			updates = take();
		}
		if (res.writableEnded || req.socket.destroyed) return;
		call.result = updates.map((u) => u.update_id);
		if (updates.length) this.record(call);
		this.send(res, 200, { ok: true, result: updates });
	}

	private store(m: StoredMessage): void {
		this.messages.set(`${m.chat_id}:${m.message_id}`, m);
		const list = this.chatMessages.get(m.chat_id);
		if (list) list.push(m);
		else this.chatMessages.set(m.chat_id, [m]);
	}

	private botMessage(chatId: number, text: string | undefined, reply_markup?: any) {
		const message_id = this.msgId(chatId);
		this.store({ message_id, chat_id: chatId, from_bot: true, text, reply_markup });
		return {
			message_id,
			date: Math.floor(Date.now() / 1000),
			chat:
				chatId > 0
					? { id: chatId, type: 'private', first_name: 'User' }
					: { id: chatId, type: 'group', title: 'A group' },
			from: { id: this.botInfo.id, is_bot: true, first_name: this.botInfo.first_name, username: this.botInfo.username },
			...(text !== undefined ? { text } : {}),
			...(reply_markup ? { reply_markup } : {}),
		};
	}

	private dispatch(method: string, p: Record<string, any>): unknown {
		const chatId = p.chat_id !== undefined ? Number(p.chat_id) : NaN;
		const markup = typeof p.reply_markup === 'string' ? JSON.parse(p.reply_markup) : p.reply_markup;
		switch (method) {
			case 'getMe':
				return this.botInfo;
			case 'sendMessage':
				if (!p.text || String(p.text).length > 4096) return new Error('Bad Request: message text is empty or too long');
				return this.botMessage(chatId, String(p.text), markup?.inline_keyboard ? markup : undefined);
			case 'sendDocument':
			case 'sendPhoto':
				return this.botMessage(chatId, p.caption);
			case 'editMessageText':
			case 'editMessageReplyMarkup': {
				const m = this.messages.get(`${chatId}:${p.message_id}`);
				if (!m || m.deleted) return new Error('Bad Request: message to edit not found');
				if (method === 'editMessageText') {
					if (m.text === p.text && JSON.stringify(m.reply_markup ?? null) === JSON.stringify(markup ?? null)) {
						return new Error('Bad Request: message is not modified');
					}
					m.text = String(p.text);
				}
				m.reply_markup = markup?.inline_keyboard?.length ? markup : undefined;
				return {
					message_id: m.message_id,
					date: Math.floor(Date.now() / 1000),
					chat: { id: chatId, type: 'private', first_name: 'User' },
					from: { id: this.botInfo.id, is_bot: true, first_name: this.botInfo.first_name },
					text: m.text,
					...(m.reply_markup ? { reply_markup: m.reply_markup } : {}),
				};
			}
			case 'deleteMessage': {
				const m = this.messages.get(`${chatId}:${p.message_id}`);
				if (!m || m.deleted) return new Error('Bad Request: message to delete not found');
				m.deleted = true;
				return true;
			}
			case 'answerCallbackQuery':
			case 'sendChatAction':
			case 'setMyCommands':
			case 'deleteMyCommands':
			case 'setWebhook':
			case 'deleteWebhook':
			case 'setChatMenuButton':
			case 'close':
			case 'logOut':
				return true;
			case 'getMyCommands':
				return this.callsOf('setMyCommands').slice(-1)[0]?.payload.commands ?? [];
			case 'getWebhookInfo':
				return { url: '', has_custom_certificate: false, pending_update_count: this.queue.length };
			case 'getFile': {
				const f = this.files.get(String(p.file_id));
				if (!f) return new Error('Bad Request: invalid file_id');
				return { file_id: p.file_id, file_unique_id: `u${p.file_id}`, file_size: f.content.length, file_path: f.path };
			}
			default:
				return undefined;
		}
	}
}

let userSeq = 0;
export function makeUser(id?: number, name = 'Ada'): FakeUser {
	userSeq++;
	return { id: id ?? 500_000 + userSeq, first_name: name, username: `${name.toLowerCase()}${userSeq}` };
}
