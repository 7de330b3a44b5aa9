/**
 * What a purchase node says when its run stops without Continue On Fail: n8n shows only the error of a
 * node that throws, so the error itself accounts for every row, and a row already bought is never lost in
 * the throw. Rows are counted from 1, as n8n's panels show them.
 */
import { nairaText } from '../../client/core';
import { countText } from './format';

export interface BoughtRow {
	/** From 1. */
	row: number;
	reference?: string;
	amountKobo: number;
}

export interface StopFacts {
	rows: number;
	bought: BoughtRow[];
	/** Rows refused before anything was sent for them (index from 0, error). */
	refused: Array<[number, unknown]>;
	/** Rows sent that failed (not charged) or are unclear (index from 0, error). */
	failed: Array<[number, unknown]>;
	/** Rows not sent because the run stopped (index from 0). */
	notSent: number[];
	/** The row's reason in the builder's words. */
	reason: (error: unknown, index: number) => string;
	/** Whether a sent row's outcome is unclear (it may have been bought). */
	unclear: (error: unknown) => boolean;
}

/** The longest list of rows an error spells out per kind; the rest is counted. */
const LIST_MAX = 20;

export function rowsWord(n: number): string {
	return countText(n, 'row');
}

/** `row 4` or `rows 4, 5`. */
export function rowList(rows: number[]): string {
	return `row${rows.length === 1 ? '' : 's'} ${listed(rows, String, ', ')}`;
}

function listed<T>(items: T[], text: (item: T) => string, sep = '; '): string {
	const shown = items.slice(0, LIST_MAX).map(text).join(sep);
	return items.length > LIST_MAX ? `${shown}${sep}and ${items.length - LIST_MAX} more` : shown;
}

/** `row 3: <reason>`, the reason without the `[row 3]` tag it already carries. */
function rowReason(f: StopFacts, [i, error]: [number, unknown]): string {
	return `row ${i + 1}: ${f
		.reason(error, i)
		.replace(/\s*\[row \d+\]$/, '')
		.replace(/\.$/, '')}`;
}

function boughtText(b: BoughtRow): string {
	const facts = [b.amountKobo > 0 ? nairaText(b.amountKobo) : '', b.reference ? `reference ${b.reference}` : ''];
	const shown = facts.filter((x) => x !== '').join(', ');
	return `row ${b.row}${shown ? ` (${shown})` : ''}`;
}

export function stopReport(f: StopFacts): { message: string; description: string } {
	const problems = [...f.refused, ...f.failed].sort((a, b) => a[0] - b[0]);
	const unclear = f.failed.filter(([, e]) => f.unclear(e));
	// refused rows were never sent, whatever their code (an unreadable history refuses with unknown_outcome)
	const notBought = [...f.refused, ...f.failed.filter(([, e]) => !f.unclear(e))].sort((a, b) => a[0] - b[0]);
	const first = `${rowReason(f, problems[0]).replace(/^row/, 'Row')}.`;
	const lines: string[] = [];
	let message: string;
	if (f.bought.length === 0 && unclear.length === 0) {
		const rows = rowList(problems.map(([i]) => i + 1));
		// rows refused before sending "cannot be bought"; rows the site refused (proven not charged) were sent
		const verb = f.failed.length ? 'not bought' : 'cannot be bought';
		message = `Nothing was bought: ${problems.length} of ${rowsWord(f.rows)} ${verb} (${rows}). ${first}`;
		lines.push(`Not bought: ${listed(notBought, (p) => rowReason(f, p))}.`);
		if (f.failed.length === 0) lines.push('Nothing was sent for any row: correct these rows and run the node again.');
		else if (f.notSent.length) lines.push(`Not sent (the run stopped first): ${rowList(f.notSent.map((i) => i + 1))}.`);
	} else {
		const spent = f.bought.reduce((sum, b) => sum + b.amountKobo, 0);
		const counts = [`${f.bought.length} of ${rowsWord(f.rows)} bought${spent > 0 ? ` (${nairaText(spent)})` : ''}`];
		if (notBought.length) counts.push(`${notBought.length} not bought`);
		if (unclear.length) counts.push(`${unclear.length} unclear`);
		if (f.notSent.length) counts.push(`${f.notSent.length} not sent`);
		message = `The run stopped: ${counts.join(', ')}. ${first}`;
		if (f.bought.length) {
			lines.push(`Bought, do not buy them again: ${listed(f.bought, boughtText, ', ')}.`);
		}
		if (notBought.length) lines.push(`Not bought: ${listed(notBought, (p) => rowReason(f, p))}.`);
		if (unclear.length) {
			lines.push(
				`Unclear, check later and do not buy them again (VTU Transaction, Resolve Unclear Purchase settles ` +
					`them): ${listed(unclear, (p) => rowReason(f, p))}.`,
			);
		}
		if (f.notSent.length) {
			lines.push(`Not sent (the run stopped first): ${rowList(f.notSent.map((i) => i + 1))}.`);
		}
		lines.push(
			"Retry On Fail and Executions' Retry give the bought rows back without buying them again. To get every " +
				'row as an item instead, bought ones on the main output and the rest on their own, choose Settings, ' +
				'On Error: "Continue (using error output)".',
		);
	}
	return { message, description: lines.join(' ') };
}
