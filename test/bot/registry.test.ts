/** The registry is the one list: commands, /help, the main menu and `go:` buttons all come from it. */
import { features } from '../../bot/features';
import { commandsOf, menuRows } from '../../bot/features/registry';
import { t } from '../../bot/i18n';
import { useBotEnv } from './harness';

const env = useBotEnv();

test("setMyCommands, /help and the main menu are the registry's", async () => {
	const app = await env.makeBot();
	const calls = env.tg.callsOf('setMyCommands');
	const users = calls.find((c) => !c.payload.scope || c.payload.scope.type === 'default')!;
	const pairs = (cmds: { command: string; description: string }[]) =>
		cmds.map(({ command, description }) => ({ command, description }));
	expect(pairs(users.payload.commands)).toEqual(
		commandsOf(features(), { admin: false }).map((c) => ({ command: c.name, description: t(c.description) })),
	);
	const admin = calls.find((c) => c.payload.scope?.chat_id === env.admin1.id)!;
	expect(admin.payload.commands.map((c: { command: string }) => c.command)).toEqual(
		commandsOf(features(), { admin: true }).map((c) => c.name),
	);

	await env.send(app, env.tg.textUpdate(env.alice, '/help'));
	const help = env.tg.lastText(env.alice.id)!;
	for (const c of commandsOf(features(), { admin: false })) if (c.help) expect(help).toContain(t(c.help));
	expect(env.tg.buttons(env.alice.id).map((b) => b.text)).toEqual(
		menuRows(features())
			.flat()
			.map((e) => t(e.label)),
	);
});

test('every listed command is answered; every menu button opens its place', async () => {
	const app = await env.makeBot();
	for (const c of commandsOf(features(), { admin: true })) {
		const before = env.tg.textsTo(env.admin1.id).length + env.tg.callsOf('editMessageText').length;
		await env.send(app, env.tg.textUpdate(env.admin1, `/${c.name}`));
		expect(env.tg.textsTo(env.admin1.id).length + env.tg.callsOf('editMessageText').length).toBeGreaterThan(before);
		await env.send(app, env.tg.textUpdate(env.admin1, '/cancel'));
	}
	for (const e of menuRows(features()).flat()) {
		await env.send(app, env.tg.textUpdate(env.admin1, '/start'));
		const before = env.tg.textsTo(env.admin1.id).length;
		await env.send(app, env.tg.buttonUpdate(env.admin1, t(e.label)));
		expect(env.tg.textsTo(env.admin1.id).length).toBeGreaterThan(before);
		await env.send(app, env.tg.textUpdate(env.admin1, '/cancel'));
	}
});
