/** The bot's HTTP plumbing: grammY over bot-api-fetch.ts against the local Bot API, and sharedRead. */
import http from 'node:http';
import { Bot, GrammyError, HttpError, InputFile } from 'grammy';
import { botApiFetch } from '../../bot/bot-api-fetch';
import { sharedRead } from '../../bot/bot';
import { FakeTelegram } from './fake-telegram';

describe('botApiFetch as grammY client.fetch', () => {
	let tg: FakeTelegram;
	let bot: Bot;
	let connections = 0;
	beforeEach(async () => {
		tg = await new FakeTelegram().start();
		connections = 0;
		(tg as unknown as { server: http.Server }).server.on('connection', () => connections++);
		const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
		bot = new Bot('1:test', {
			botInfo: tg.botInfo,
			client: { apiRoot: tg.apiRoot, fetch: botApiFetch as never, baseFetchConfig: { agent } },
		});
	});
	afterEach(() => tg.close());

	test('JSON calls (UTF-8 both ways) reuse one kept-alive connection', async () => {
		const kb = { inline_keyboard: [[{ text: '✅ Confirm: pay ₦250.00', callback_data: 'confirm:1' }]] };
		for (let i = 0; i < 5; i++) {
			const m = await bot.api.sendMessage(42, `₦250.00 🎉 #${i}`, { reply_markup: kb });
			expect(m).toMatchObject({ text: `₦250.00 🎉 #${i}`, reply_markup: kb });
		}
		expect(tg.callsOf('sendMessage').map((c) => c.payload.text)).toEqual(
			[0, 1, 2, 3, 4].map((i) => `₦250.00 🎉 #${i}`),
		);
		expect(connections).toBe(1);
	});

	test('a file upload (multipart stream body) arrives with its fields', async () => {
		await bot.api.sendDocument(42, new InputFile(Buffer.from('name,phone\nAda,08031234567\n'), 'list.csv'), {
			caption: 'recipients',
		});
		expect(tg.callsOf('sendDocument')[0].payload).toMatchObject({ chat_id: 42, caption: 'recipients' });
	});

	test('Bot API errors keep their code; an aborted call and an unreachable API are HttpErrors', async () => {
		tg.failNext('sendMessage', {
			error_code: 429,
			description: 'Too Many Requests: retry after 1',
			parameters: { retry_after: 1 },
		});
		const e = await bot.api.sendMessage(42, 'x').catch((err: unknown) => err);
		expect(e).toBeInstanceOf(GrammyError);
		expect((e as GrammyError).error_code).toBe(429);

		const ac = new AbortController();
		// grammY types its signal with the abort-controller package's AbortSignal; Node's is what it uses at run time.
		const polling = bot.api.getUpdates({ timeout: 30 }, ac.signal as Parameters<typeof bot.api.getUpdates>[1]);
		ac.abort();
		await expect(polling).rejects.toBeInstanceOf(HttpError);

		await tg.close();
		await expect(bot.api.sendMessage(42, 'x')).rejects.toBeInstanceOf(HttpError);
	});
});

describe('sharedRead', () => {
	test('overlapping callers share one read; a caller after it settles reads again, even after a failure', async () => {
		let reads = 0;
		const gates: { resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
		const read = sharedRead(() => {
			reads++;
			return new Promise<number>((resolve, reject) => gates.push({ resolve, reject }));
		});
		const a = read();
		const b = read();
		expect(reads).toBe(1);
		gates[0].resolve(100);
		await expect(Promise.all([a, b])).resolves.toEqual([100, 100]);

		const c = read();
		expect(reads).toBe(2);
		gates[1].reject(new Error('vendor down'));
		await expect(c).rejects.toThrow('vendor down');

		const d = read();
		expect(reads).toBe(3);
		gates[2].resolve(90);
		await expect(d).resolves.toBe(90);
	});
});
