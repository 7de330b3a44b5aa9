/**
 * VTU Transaction → Get Many: the account's records of one product, newest first, with Return All, a date
 * range (Created After / Before) and a status filter.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { VtuClient } from '../../client/core';
import type { Product, PurchaseResult } from '../../client/types';
import { limitField } from '../shared/descriptions';
import { refuse } from '../shared/errors';
import { resultJson } from '../shared/format';

const SHOW = { operation: ['getMany'] };

/** The most pages one item reads (the site lists 10-50 records a page); past it the last item says so. */
export const MAX_PAGES = 500;

export const getManyFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: { show: SHOW },
	},
	limitField({ ...SHOW, returnAll: [false] }),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: SHOW },
		options: [
			{
				displayName: 'Created After',
				name: 'createdAfter',
				type: 'dateTime',
				default: '',
				description: 'Only records created at or after this time',
			},
			{
				displayName: 'Created Before',
				name: 'createdBefore',
				type: 'dateTime',
				default: '',
				description: 'Only records created before this time',
			},
			// a literal: n8n-nodes-base's node-param-* rules check a parameter only as one
			{
				displayName: 'Status',
				name: 'status',
				type: 'multiOptions',
				options: [
					{ name: 'Failed', value: 'failed' },
					{ name: 'Processing', value: 'processing' },
					{ name: 'Successful', value: 'successful' },
				],
				default: [],
				description: 'Only records in these statuses (none chosen: all)',
			},
		],
	},
];

function timeFilter(raw: unknown, label: string): number | null {
	if (raw === undefined || raw === null || raw === '') return null;
	const t = Date.parse(String(raw));
	if (Number.isNaN(t)) {
		throw refuse(
			'invalid_input',
			`${label} "${String(raw)}" is not a date`,
			'Pick a date, or type one like 2026-11-24 or 2026-11-24T09:00:00+01:00.',
		);
	}
	return t;
}

/** One item's Get Many: pages newest first until the limit, the start of the date range, or the end. */
export async function getMany(
	ctx: IExecuteFunctions,
	client: VtuClient,
	product: Product,
	i: number,
): Promise<IDataObject[]> {
	const returnAll = ctx.getNodeParameter('returnAll', i, false) as boolean;
	const limit = returnAll ? Infinity : (ctx.getNodeParameter('limit', i, 50) as number);
	const f = ctx.getNodeParameter('filters', i, {}) as IDataObject;
	const after = timeFilter(f.createdAfter, 'Created After');
	const before = timeFilter(f.createdBefore, 'Created Before');
	if (after !== null && before !== null && after >= before) {
		throw refuse('invalid_input', 'Created After is not before Created Before', 'Swap the two dates.');
	}
	const statuses = Array.isArray(f.status) ? (f.status as string[]) : [];
	const keep = (r: PurchaseResult, t: number | null) =>
		(statuses.length === 0 || statuses.includes(r.status)) &&
		(after === null || (t !== null && t >= after)) &&
		(before === null || (t !== null && t < before));
	const out: IDataObject[] = [];
	let page: number | null = 1;
	let pages = 0;
	while (page !== null && out.length < limit) {
		if (pages === MAX_PAGES) {
			out.push({ truncated: true, note: `Stopped after ${MAX_PAGES} pages; narrow the date range to read the rest` });
			break;
		}
		const res = await client.transactions.list(product, { page });
		pages++;
		let older = 0;
		for (const r of res.items) {
			const t = r.createdAt ? Date.parse(r.createdAt) : null;
			if (after !== null && t !== null && t < after) older++;
			if (out.length < limit && keep(r, t)) out.push(resultJson(r));
		}
		// newest first: a page wholly older than Created After ends the search
		if (after !== null && res.items.length > 0 && older === res.items.length) break;
		page = res.items.length === 0 ? null : res.next;
	}
	return out;
}
