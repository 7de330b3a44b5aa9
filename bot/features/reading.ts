/**
 * A reading feature (/balance, /fund, the storefront's /history): a command answered during a flow
 * without ending it, and the same answer on its main-menu button. Built from a small declaration: its
 * command, menu button and what it reads; a failed read is said in the user's words, like any text.
 */
import type { MyContext, Services } from '../context';
import { flowOpen } from '../flow/confirm';
import { menuButton } from '../flow/keyboards';
import { failText } from '../flow/pickers';
import { stillOpen } from '../flow/ui';
import type { InlineKeyboard } from 'grammy';
import { t } from '../i18n';
import type { Place } from '../callback-data';
import type { CommandSpec, Feature, MenuEntry } from './registry';

export interface Reading {
	command: Omit<CommandSpec, 'keepsFlow'>;
	/** Main-menu button: catalogue key of the label, row. */
	menu: Omit<MenuEntry, 'place'>;
	/** What it says; `failed` (a catalogue key) heads the reason when the read throws. */
	read(s: Services, ctx: MyContext): Promise<string>;
	failed: string;
}

export function readingFeature(name: string, place: Place, d: Reading): Feature {
	return {
		name,
		commands: [{ ...d.command, keepsFlow: true }],
		menu: { ...d.menu, place },
		build: (s) => {
			const show = async (ctx: MyContext) => replyReading(s, ctx, await orFailed(s, d.failed, () => d.read(s, ctx)));
			return { commands: { [d.command.name]: show }, places: { [place]: show } };
		},
	};
}

/** The text `read` gives, or why it failed (logged; the error in the user's words after `failed`'s text). */
export async function orFailed(s: Services, failed: string, read: () => Promise<string>): Promise<string> {
	try {
		return await read();
	} catch (e) {
		return failText(s, t(failed), e);
	}
}

/** During a flow its buttons are the next step: a Menu button would only be swallowed by it. */
export async function replyReading(s: Services, ctx: MyContext, text: string, markup?: InlineKeyboard): Promise<void> {
	if (flowOpen(s, ctx)) await ctx.reply(text + stillOpen());
	else await ctx.reply(text, { reply_markup: markup ?? menuButton() });
}
