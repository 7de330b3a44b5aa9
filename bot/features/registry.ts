/**
 * The bot as a registry of features. Each feature module declares, in one place, its commands (with
 * their command-list description and /help line), its main-menu button, the `go:` places it opens and
 * its flows; `createBot` reads `features()` (features/index.ts) instead of lists kept in step by hand:
 * setMyCommands, /help, the main menu and the `go:` buttons all derive from it.
 */
import type { Composer, CommandContext } from 'grammy';
import type { MyContext, Services } from '../context';
import type { Place } from '../callback-data';

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
