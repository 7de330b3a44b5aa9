/**
 * /language: a locale is a file. A user picks the test-only locale (fixtures/locales) and gets its texts where
 * they exist, English elsewhere (and where a translation is broken); another user stays English; the pick
 * survives a restart and the move of the picks from user_locales to the key/value table (migration 7); a flow's
 * questions and the follower's notices are in it.
 */
import { join } from 'node:path';
import { openDatabase } from '../../bot/db';
import { localeKey } from '../../bot/language';
import { commandsOf } from '../../bot/features/registry';
import { features } from '../../bot/features';
import type { VtuBot } from '../../bot/bot';
import type { FakeUser } from './fake-telegram';
import { useBotEnv } from './harness';
import { until } from '../until';
import { text } from './texts';

const env = useBotEnv();
const localesDir = join(__dirname, 'fixtures', 'locales');
const PIDGIN = 'Pidgin (test)';

const userCommands = () =>
	env.tg
		.callsOf('setMyCommands')
		.filter((c) => !c.payload.scope || c.payload.scope.type === 'default')
		.at(-1)!
		.payload.commands.map((c: { command: string }) => c.command);

async function pick(app: VtuBot, u: FakeUser, name: string): Promise<void> {
	await env.send(app, env.tg.textUpdate(u, '/language'));
	expect(env.tg.lastText(u.id)).toBe(text('language-choose'));
	await env.send(app, env.tg.buttonUpdate(u, name));
}

// first: once a test loads the fixture, this file's catalogue has two locales
test('one locale file: no /language in the command list or /help', async () => {
	const app = await env.makeBot();
	expect(userCommands()).not.toContain('language');
	expect(userCommands()).toEqual(commandsOf(features(), { admin: false }).map((c) => c.name));
	await env.send(app, env.tg.textUpdate(env.alice, '/help'));
	expect(env.tg.lastText(env.alice.id)).not.toContain('/language');
});

test('a user picks a language: its texts where translated, English elsewhere; others stay English', async () => {
	const app = await env.makeBot({}, env.dbPath, env.client, { localesDir });
	expect(userCommands()).toContain('language');
	await env.send(app, env.tg.textUpdate(env.alice, '/language'));
	expect(env.tg.buttons(env.alice.id).map((b) => b.text)).toEqual(['English', PIDGIN]);
	await env.send(app, env.tg.buttonUpdate(env.alice, PIDGIN));
	expect(env.tg.lastText(env.alice.id)).toBe(`Na ${PIDGIN} we go yarn now.`);

	await env.send(app, env.tg.textUpdate(env.alice, '/help'));
	const help = env.tg.lastText(env.alice.id)!;
	expect(help).toMatch(/^I dey buy data, airtime and more from the merchant wallet\.\n/);
	expect(help).toContain(text('help-data')); // not translated: English
	expect(help).toContain(text('help-language'));
	// a translation that cannot be formatted (unknown variable): the English text, never a key or a crash
	await env.send(app, env.tg.textUpdate(env.alice, '/start'));
	expect(env.tg.lastText(env.alice.id)).toBe(text('menu-hello', { name: env.alice.first_name }));

	await env.send(app, env.tg.textUpdate(env.bob, '/help'));
	expect(env.tg.lastText(env.bob.id)!.startsWith(`${text('help-intro')}\n`)).toBe(true);

	// the pick survives a restart (same database, new process' bot)
	await app.close();
	const again = await env.makeBot({}, env.dbPath, env.client, { localesDir });
	await env.send(again, env.tg.textUpdate(env.alice, '/help'));
	expect(env.tg.lastText(env.alice.id)).toMatch(/^I dey buy data/);
	// and back to English
	await pick(again, env.alice, 'English');
	expect(env.tg.lastText(env.alice.id)).toBe(text('language-set', { language: 'English' }));
	await env.send(again, env.tg.textUpdate(env.alice, '/help'));
	expect(env.tg.lastText(env.alice.id)).not.toMatch(/^I dey buy data/);
});

test("a notice the follower sends outside an update is in the user's language", async () => {
	await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 100, finalStatus: 'successful' } });
	const app = await env.makeBot({}, env.dbPath, env.client, { localesDir });
	await pick(app, env.alice, PIDGIN);
	// a flow's question, asked inside the conversation (replayed on each update of the flow)
	await env.send(app, env.tg.textUpdate(env.alice, '/data'));
	await env.send(app, env.tg.buttonUpdate(env.alice, 'MTN'));
	await env.send(app, env.tg.buttonUpdate(env.alice, /^1GB SME /));
	expect(env.tg.lastText(env.alice.id)).toMatch(/\nSend the MTN number wey you wan load\.$/);
	await env.send(app, env.tg.textUpdate(env.alice, '0803 123 4567'));
	await env.send(app, env.tg.buttonUpdate(env.alice, /^confirm:/));
	const ref = app.journal.recentForUser(env.alice.id)[0].id;
	await until(async () => {
		await app.follower.tick();
		return app.journal.recentForUser(env.alice.id)[0].notifiedState === 'successful';
	}, 'the settled order to be told');
	expect(env.tg.lastText(env.alice.id)).toMatch(new RegExp(`^News for your order ${ref}:\\n`));
});

test("an admin's message to a user is in the user's language, the admin's answer in the admin's", async () => {
	const app = await env.makeBot({}, env.dbPath, env.client, { localesDir });
	await pick(app, env.alice, PIDGIN);
	app.pins.set(env.alice.id, '1234');
	await env.send(app, env.tg.textUpdate(env.admin1, `/resetpin ${env.alice.id}`));
	expect(env.tg.lastText(env.alice.id)).toBe('Oga don clear your PIN. Use /setpin set new one.');
	expect(env.tg.lastText(env.admin1.id)).not.toMatch(/Oga/);
	expect(env.tg.textsTo(env.admin1.id)).toHaveLength(1);
});

test('a database from before migration 7 (picks in user_locales) opens: each user keeps their language', async () => {
	const old = openDatabase(env.dbPath, 6);
	const pickedBefore = old.prepare(`INSERT INTO user_locales (user_id, locale, changed_at) VALUES (?, ?, ?)`);
	pickedBefore.run(env.alice.id, 'pcm', 1_700_000_000_000);
	pickedBefore.run(env.bob.id, 'yo', 1_700_000_000_000); // a locale whose file is gone: English, as before
	old.close();

	const app = await env.makeBot({}, env.dbPath, env.client, { localesDir });
	expect(app.db.pragma('user_version', { simple: true })).toBe(7);
	expect(app.db.prepare(`SELECT name FROM sqlite_master WHERE name = 'user_locales'`).get()).toBeUndefined();
	const kv = app.db.prepare(`SELECT value, updated_at FROM kv WHERE key = ?`);
	expect(kv.get(localeKey(env.alice.id))).toEqual({ value: '"pcm"', updated_at: 1_700_000_000_000 });

	await env.send(app, env.tg.textUpdate(env.alice, '/help'));
	expect(env.tg.lastText(env.alice.id)).toMatch(/^I dey buy data/);
	await env.send(app, env.tg.textUpdate(env.bob, '/help'));
	expect(env.tg.lastText(env.bob.id)!.startsWith(`${text('help-intro')}\n`)).toBe(true);
	// back to English: the key goes, as the row did
	await pick(app, env.alice, 'English');
	expect(kv.get(localeKey(env.alice.id))).toBeUndefined();
	await env.send(app, env.tg.textUpdate(env.alice, '/help'));
	expect(env.tg.lastText(env.alice.id)).not.toMatch(/^I dey buy data/);
});
