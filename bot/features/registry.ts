/**
 * The bot as a registry of features. Each feature module declares, in one place, its commands (with
 * their command-list description and /help line), its main-menu button, the `go:` places it opens and
 * its flows; `createBot` reads `features(mode)` (features/index.ts) once, instead of lists kept in step by
 * hand, and hands it on as `Services.features`: setMyCommands, /help, the main menu and the `go:` buttons all
 * derive from it.
 */
import type { Composer, CommandContext } from 'grammy';
import type { MyContext, Services } from '../context';
import type { Place } from '../callback-data';
import type { Redo } from './product';
import { t } from '../i18n';

/** Which bot this process is: the staff's till or the customers' storefront (VTU_BOT_MODE). */
export type BotMode = 'till' | 'storefront';

export type CommandHandler = (ctx: CommandContext<MyContext>) => Promise<unknown>;

export interface CommandSpec {
	name: string;
	/** Catalogue key of the command-list description (setMyCommands). */
	description: string;
	/** Catalogue key of its /help line; none = not listed in /help. */
	help?: string;
	/** Only admins may use it (it is listed in each admin's chat scope only). */
	admin?: boolean;
	/** Answered during a flow, leaving the flow open (reading commands: /balance, /history, /status). */
	keepsFlow?: boolean;
}

export interface MenuEntry {
	/** Catalogue key of the button label. */
	label: string;
	place: Place;
	/** Row of the main menu (0 = top); buttons keep the registry's order within a row. */
	row: number;
}

/** What a feature contributes once built with the services. */
export interface FeatureParts {
	/** Handlers of the feature's commands, by name (a command without one is only listed, e.g. /cancel). */
	commands?: Record<string, CommandHandler>;
	/** What a `go:<place>` button does. */
	places?: Partial<Record<Place, (ctx: MyContext) => Promise<unknown>>>;
	/** Conversations (createConversation): installed before any command that enters them. */
	flows?: Composer<MyContext>;
	/** Buttons and other updates the feature handles (after the commands). */
	composer?: Composer<MyContext>;
}

export interface Feature {
	name: string;
	commands?: CommandSpec[];
	menu?: MenuEntry;
	build(s: Services): FeatureParts;
	/** A product's "Try again" after the vendor refused one of its details by name at the purchase (repeat.ts). */
	redo?: (s: Services) => Redo;
}

export function commandsOf(features: readonly Feature[], opts: { admin: boolean }): CommandSpec[] {
	return features.flatMap((f) => f.commands ?? []).filter((c) => opts.admin || !c.admin);
}

/** Main-menu buttons by row. */
export function menuRows(features: readonly Feature[]): MenuEntry[][] {
	const rows: MenuEntry[][] = [];
	for (const f of features) if (f.menu) (rows[f.menu.row] ??= []).push(f.menu);
	return rows.filter(Boolean);
}

/**
 * A feature of admin commands, from their names and the catalogue keys of their descriptions (in the
 * command list's order): listed in the admins' chats only, and anyone else who types one is told so.
 */
export function adminFeature(
	name: string,
	descriptions: Record<string, string>,
	handlers: (s: Services) => Record<string, CommandHandler>,
): Feature {
	return {
		name,
		commands: Object.entries(descriptions).map(([command, description]) => ({
			name: command,
			description,
			admin: true,
		})),
		build: (s) => {
			const onlyAdmins =
				(h: CommandHandler): CommandHandler =>
				(ctx) =>
					s.access.isAdmin(ctx.from?.id) ? h(ctx) : ctx.reply(t('admin-only'));
			return { commands: Object.fromEntries(Object.entries(handlers(s)).map(([c, h]) => [c, onlyAdmins(h)])) };
		},
	};
}
