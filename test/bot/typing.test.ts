/**
 * typingWhileSlow (bot/middlewares/typing.ts): "typing…" for an update that is slow to answer, none once the
 * update has sent or edited a message (its answer is the sign of progress), and always cleared at the end.
 */
import type { MyContext } from '../../bot/context';
import { typingWhileSlow } from '../../bot/middlewares/typing';

type Transformer = (
	prev: (method: string, payload: unknown) => Promise<unknown>,
	method: string,
	payload: unknown,
) => Promise<unknown>;

/** A private chat's context whose `ctx.api` runs its transformers, recording every chat action set. */
function fakeCtx() {
	const transformers: Transformer[] = [];
	const actions: (string | null)[] = [];
	let action: string | null = null;
	const ctx = {
		chat: { id: 1, type: 'private' },
		api: { config: { use: (t: Transformer) => transformers.push(t) } },
		get chatAction() {
			return action;
		},
		set chatAction(a: string | null) {
			action = a;
			actions.push(a);
		},
	};
	const call = (method: string) =>
		transformers.reduce<(m: string, p: unknown) => Promise<unknown>>(
			(prev, t) => (m, p) => t(prev, m, p),
			async () => true,
		)(method, {});
	return { ctx: ctx as unknown as MyContext, call, actions };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a slow update that has not answered yet shows typing, cleared when it ends', async () => {
	const { ctx, call, actions } = fakeCtx();
	await typingWhileSlow(10)(ctx, async () => {
		await call('answerCallbackQuery'); // not a message: no sign in the chat
		await call('editMessageReplyMarkup'); // nor is a keyboard taken away
		await sleep(40);
		await call('editMessageText');
	});
	expect(actions).toEqual(['typing', null]);
});

test('an update that has sent its answer shows no typing, however long it takes after', async () => {
	for (const answer of ['sendMessage', 'editMessageText', 'sendDocument']) {
		const { ctx, call, actions } = fakeCtx();
		await typingWhileSlow(10)(ctx, async () => {
			await call(answer);
			await sleep(40);
		});
		expect(actions).toEqual([null]);
	}
});

test('a handler that sets typing itself keeps it (the purchase after "Sending…")', async () => {
	const { ctx, call, actions } = fakeCtx();
	await typingWhileSlow(10)(ctx, async () => {
		await call('editMessageText');
		ctx.chatAction = 'typing';
		await sleep(40);
	});
	expect(actions).toEqual(['typing', null]);
});
