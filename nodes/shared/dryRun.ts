/**
 * Dry Run's answer to "can I run this?": one summary item, then (Dry Run Detail Per Row) one item per row.
 */
import type { IDataObject, INodeExecutionData, IPairedItemData } from 'n8n-workflow';

import { formatNaira, nairaText, type PurchaseResult, type VtuClient } from '../../client/core';
import { errorJson } from './errors';
import { resultJson } from './format';
import type { PurchaseRunOptions } from './runner';

/** The output of an item that an earlier run already bought: its record, path 'existing', nothing sent. */
export function existingJson(r: PurchaseResult): IDataObject {
	return { ...resultJson(r), path: 'existing' };
}

export interface DryRunFacts {
	count: number;
	pending: number[];
	prices: Map<number, { kobo: number; json: IDataObject }>;
	existing: Map<number, PurchaseResult>;
	bad: Map<number, unknown>;
	opts: PurchaseRunOptions;
	paired: (index: number) => IPairedItemData | IPairedItemData[];
	outputs: Array<INodeExecutionData[] | undefined>;
	spentKobo: number;
	detail: boolean;
	/** Whether items already bought were looked up (Skip If Already Bought Within, retried execution). */
	looked: boolean;
}

/**
 * A dry run answers "can I run this?": one summary item (rows, total, wallet balance, short by how much,
 * every bad row with its reason), then, with Dry Run Detail, one item per row.
 */
export async function dryRunOutput(client: VtuClient, f: DryRunFacts): Promise<INodeExecutionData[]> {
	let totalKobo = 0;
	for (const i of f.pending) totalKobo += f.prices.get(i)!.kobo;
	let wallet: number | null = null;
	try {
		wallet = (await client.user.balance()).kobo;
	} catch {
		wallet = null; // the summary says the balance could not be read; pricing still stands
	}
	const shortKobo = wallet === null ? 0 : Math.max(0, totalKobo - wallet);
	const capLeft = f.opts.spendCapKobo > 0 ? f.opts.spendCapKobo - f.spentKobo : null;
	const overCap = capLeft !== null && totalKobo > capLeft;
	const badRows = [...f.bad.keys()]
		.sort((a, b) => a - b)
		.map((i) => {
			const e = errorJson(f.bad.get(i), i);
			return { row: i + 1, error: e.error, code: e.code, ...(e.hint ? { hint: e.hint } : {}) } as IDataObject;
		});
	const canRun = badRows.length === 0 && shortKobo === 0 && !overCap && wallet !== null;
	const rowsWord = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
	const parts = [`${rowsWord(f.count)}: ${f.pending.length} ready (${nairaText(totalKobo)})`];
	if (badRows.length) parts.push(`${badRows.length} bad (rows ${badRows.map((b) => b.row).join(', ')})`);
	if (f.existing.size) parts.push(`${f.existing.size} already bought, would be skipped`);
	parts.push(wallet === null ? 'wallet balance could not be read' : `wallet ${nairaText(wallet)}`);
	if (shortKobo > 0) parts.push(`short by ${nairaText(shortKobo)}`);
	if (overCap) parts.push(`over the Spend Cap (${nairaText(capLeft!)} left of ${nairaText(f.opts.spendCapKobo)})`);
	const summary: IDataObject = {
		dryRun: true,
		canRun,
		summary: `${canRun ? 'Can run' : 'Cannot run'}: ${parts.join('; ')}.`,
		rows: f.count,
		ready: f.pending.length,
		bad: badRows.length,
		alreadyBought: f.existing.size,
		total: formatNaira(totalKobo),
		walletBalance: wallet === null ? null : formatNaira(wallet),
		shortBy: formatNaira(shortKobo),
		...(f.opts.spendCapKobo > 0 ? { spendCap: formatNaira(f.opts.spendCapKobo), withinSpendCap: !overCap } : {}),
		badRows,
	};
	// one row (e.g. a whole SMS campaign): its own priced item, with the summary's facts
	if (f.count === 1 && f.pending.length === 1) {
		const { canRun: c, total, walletBalance, shortBy, spendCap, withinSpendCap } = summary;
		const facts = {
			canRun: c,
			verdict: summary.summary,
			total,
			walletBalance,
			shortBy,
			...(spendCap ? { spendCap, withinSpendCap } : {}),
		};
		return [{ json: { dryRun: true, ...f.prices.get(f.pending[0])!.json, ...facts }, pairedItem: f.paired(0) }];
	}
	const everyRow = Array.from({ length: f.count }, (_, i) => f.paired(i)).flat();
	const out: INodeExecutionData[] = [{ json: summary, pairedItem: everyRow }];
	if (!f.detail) return out;
	let running = f.spentKobo;
	for (let i = 0; i < f.count; i++) {
		const r = f.existing.get(i);
		if (r)
			out.push({
				json: { dryRun: true, row: i + 1, wouldSkip: true, ...f.prices.get(i)!.json, existing: existingJson(r) },
				pairedItem: f.paired(i),
			});
		else if (f.prices.has(i) && !f.bad.has(i)) {
			running += f.prices.get(i)!.kobo;
			const json: IDataObject = {
				dryRun: true,
				row: i + 1,
				...(f.looked ? { wouldSkip: false } : {}),
				...f.prices.get(i)!.json,
			};
			// whether this row still fits under the cap, rows bought in input order
			if (f.opts.spendCapKobo > 0) json.withinSpendCap = running <= f.opts.spendCapKobo;
			out.push({ json, pairedItem: f.paired(i) });
		} else if (f.outputs[i]) out.push(...f.outputs[i]!);
	}
	return out;
}
