import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { VtuClient } from '../../client/core';
import type { Product, PurchaseResult, TransactionStatus } from '../../client/types';
import { VtuError } from '../../client/errors';
import { getClient } from '../shared/client';
import { vtuApiTest } from '../shared/credentialTest';
import { PRODUCT_OPTIONS } from '../shared/descriptions';
import { toNodeError } from '../shared/errors';
import { resultJson } from '../shared/format';

type StatusChar = 'p' | 's' | 'f';
const TO_CHAR: Record<TransactionStatus, StatusChar> = { processing: 'p', successful: 's', failed: 'f' };
const FROM_CHAR: Record<StatusChar, TransactionStatus> = { p: 'processing', s: 'successful', f: 'failed' };

/** Workflow static data of the trigger (kept small: one short entry per tracked transaction). */
export interface TriggerState {
	v: 1;
	/** Product the state belongs to (state resets when the product changes). */
	product?: string;
	/** Highest transaction ID seen: newer IDs are new transactions. */
	maxId?: number;
	/**
	 * key (ident or "#id") → [status char, id, minute (since the epoch) of its last change or first sight].
	 * Insertion order = least recently changed first.
	 */
	t?: Record<string, [StatusChar, number | null, number?]>;
	/** List page where the re-check of older watched transactions goes on at the next poll. */
	sweep?: number;
}

export type TriggerEvent = 'new' | 'completed' | 'failed' | 'reversed' | 'otherChange';

function keyOf(r: PurchaseResult): string {
	return r.ident ? r.ident : `#${r.id}`;
}

function classify(prev: TransactionStatus, next: TransactionStatus): TriggerEvent {
	if (prev === 'processing' && next === 'successful') return 'completed';
	if (prev === 'processing' && next === 'failed') return 'failed';
	if (prev === 'successful' && next === 'failed') return 'reversed';
	return 'otherChange';
}

export interface PollSettings {
	product: Product;
	watch: 'recent' | 'idents' | 'both';
	idents: string[];
	events: TriggerEvent[];
	pages: number;
	maxTracked: number;
	emitExisting: boolean;
	refreshLimit: number;
	/** How long after its last change a transaction is re-checked beyond the scanned pages. */
	watchHours: number;
	/** The poll's clock (epoch ms). */
	now: number;
}

/**
 * Pages a poll may read beyond Pages to Scan to reach its watermark: with more new transactions
 * between two polls than the scanned pages hold (n8n in queue mode buys hundreds a minute), the
 * older new ones would otherwise never be emitted.
 */
const CATCH_UP_PAGES = 200;

/**
 * Pages a poll may read beyond the scanned ones to re-check older watched transactions (a reversal comes
 * hours after the purchase, when it is far down the list on a busy account). The next poll goes on
 * where this one stopped, so every watched transaction is re-read once per cycle of polls.
 */
const RECHECK_PAGES = 20;

/** The answer, or null when the site has no such record or page; any other error reaches poll's handler. */
function unlessNotFound<T>(read: Promise<T>): Promise<T | null> {
	return read.catch((error: unknown) => {
		if (error instanceof VtuError && error.code === 'not_found') return null;
		throw error;
	});
}
async function fetchCurrent(
	client: VtuClient,
	s: PollSettings,
	watermark?: number,
): Promise<{ records: PurchaseResult[]; missing: string[]; listed: number; nextPage: number | null }> {
	const records: PurchaseResult[] = [];
	const missing: string[] = [];
	// the list page after the scanned ones (null: the scan reached the end of the list, or reads no list)
	let page: number | null = s.watch === 'idents' ? null : 1;
	if (page !== null) {
		let allNew = watermark !== undefined;
		for (let n = 0; page !== null && (n < s.pages || (allNew && n < CATCH_UP_PAGES)); n++) {
			const res = await client.transactions.list(s.product, { page });
			records.push(...res.items);
			allNew = allNew && res.items.every((r) => typeof r.id === 'number' && r.id > watermark!);
			page = res.items.length === 0 ? null : res.next;
		}
	}
	const listed = records.length;
	if (s.watch !== 'recent') {
		const have = new Set(records.map((r) => r.ident).filter(Boolean));
		for (const ident of s.idents) {
			if (have.has(ident)) continue;
			const record = await unlessNotFound(client.transactions.findByIdent(s.product, ident));
			if (record) records.push(record);
			else missing.push(ident);
		}
	}
	return { records, missing, listed, nextPage: page };
}

/**
 * One poll against the stored state: returns the events to emit and mutates `state`. Emits a
 * transaction only when it is new (ID above the watermark, or a watched ident seen for the first
 * time) or when its status differs from the stored one, so re-polls never repeat an event.
 */
export async function pollOnce(client: VtuClient, state: TriggerState, s: PollSettings): Promise<IDataObject[]> {
	if (state.product !== s.product) {
		state.product = s.product;
		delete state.maxId;
		delete state.sweep;
		state.t = {};
	}
	const tracked = (state.t ??= {});
	const minute = Math.floor(s.now / 60_000);
	for (const entry of Object.values(tracked)) entry[2] ??= minute; // state written before watch times
	const firstPoll = state.maxId === undefined;
	const { records, listed, nextPage } = await fetchCurrent(client, s, state.maxId);
	const seen = new Set<string>();
	const out: IDataObject[] = [];
	const watermark = state.maxId ?? 0;
	let maxId = watermark;

	const consider = (r: PurchaseResult) => {
		const key = keyOf(r);
		if (seen.has(key)) return;
		seen.add(key);
		if (typeof r.id === 'number' && r.id > maxId) maxId = r.id;
		const now = TO_CHAR[r.status] ?? 'p';
		const prev = tracked[key];
		if (!prev) {
			tracked[key] = [now, r.id, minute];
			const isNew = typeof r.id === 'number' ? r.id > watermark : s.idents.includes(r.ident ?? '');
			if ((firstPoll && !s.emitExisting) || !isNew) return;
			if (s.events.includes('new')) out.push({ event: 'new', previousStatus: null, ...resultJson(r) });
			return;
		}
		if (prev[0] === now) return;
		const event = classify(FROM_CHAR[prev[0]], r.status);
		delete tracked[key];
		tracked[key] = [now, r.id ?? prev[1], minute];
		if (s.events.includes(event)) {
			out.push({
				event,
				previousStatus: FROM_CHAR[prev[0]],
				transition: `${FROM_CHAR[prev[0]]} → ${r.status}`,
				...resultJson(r),
			});
		}
	};
	for (const r of records) consider(r);

	await recheckWatched(client, state, s, { scanned: records.slice(0, listed), nextPage, minute }, consider);

	// Tracked "processing" records that left the watched pages: read them by ID.
	let refreshed = 0;
	for (const [key, [st, id]] of Object.entries(tracked)) {
		if (refreshed >= s.refreshLimit) break;
		if (st !== 'p' || seen.has(key) || typeof id !== 'number') continue;
		refreshed++;
		const record = await unlessNotFound(client.transactions.get(s.product, id));
		if (record) consider(record);
	}

	state.maxId = maxId;
	// Bound the state: drop the least recently changed entries beyond maxTracked.
	const keys = Object.keys(tracked);
	for (let n = 0; n < keys.length - s.maxTracked; n++) delete tracked[keys[n]];
	return out;
}

/**
 * Re-reads the list beyond the scanned pages, down to the oldest transaction whose last change is inside
 * the watch period, at most RECHECK_PAGES pages per poll; the next poll goes on from the page where this
 * one stopped. The list is newest first and only grows at the top, so a transaction ahead of the stored
 * page is still ahead of it at the next poll: none is skipped. Only tracked transactions are considered
 * (an untracked one down there is older than the watch or was dropped by Max Tracked Transactions).
 */
async function recheckWatched(
	client: VtuClient,
	state: TriggerState,
	s: PollSettings,
	scan: { scanned: PurchaseResult[]; nextPage: number | null; minute: number },
	consider: (r: PurchaseResult) => void,
): Promise<void> {
	const tracked = state.t!;
	const since = scan.minute - s.watchHours * 60;
	let floor = Infinity; // the oldest watched transaction's ID
	for (const [, id, at] of Object.values(tracked)) {
		if (typeof id === 'number' && (at ?? scan.minute) >= since && id < floor) floor = id;
	}
	const reached = (rs: PurchaseResult[]) => rs.some((r) => typeof r.id === 'number' && r.id <= floor);
	let page =
		scan.nextPage === null || floor === Infinity || reached(scan.scanned)
			? null
			: Math.max(state.sweep ?? 0, scan.nextPage);
	for (let n = 0; page !== null && n < RECHECK_PAGES; n++) {
		const res = await unlessNotFound(client.transactions.list(s.product, { page }));
		if (!res) {
			// past the last page
			page = null;
			break;
		}
		for (const r of res.items) if (tracked[keyOf(r)]) consider(r);
		page = reached(res.items) || res.items.length === 0 ? null : res.next;
	}
	if (page === null) delete state.sweep;
	else state.sweep = page;
}

export class VtuTransactionTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VTU Transaction Trigger',
		name: 'vtuTransactionTrigger',
		icon: { light: 'file:vtuTransactionTrigger.svg', dark: 'file:vtuTransactionTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Watch " + $parameter["product"] + " transactions"}}',
		description:
			'Starts the workflow when a VTU purchase is made or its status changes (processing → successful ' +
			'or failed, successful → failed)',
		defaults: { name: 'VTU Transaction Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vtuApi', required: true, testedBy: 'vtuApiTest' }],
		properties: [
			{
				displayName: 'Product',
				name: 'product',
				type: 'options',
				options: PRODUCT_OPTIONS.filter((p) => p.value !== 'sms'),
				default: 'data',
				description: 'Which kind of purchase to watch',
			},
			{
				displayName: 'Watch',
				name: 'watch',
				type: 'options',
				options: [
					{ name: 'Recent Transactions', value: 'recent', description: 'The newest transactions of the product' },
					{ name: 'Given References', value: 'idents', description: 'Only the references (idents) listed below' },
					{ name: 'Both', value: 'both', description: 'The newest transactions and the references listed below' },
				],
				default: 'recent',
			},
			{
				displayName: 'References',
				name: 'idents',
				type: 'string',
				default: '',
				placeholder: 'e.g. Data9b8951f68-352, Data19309363031182999583',
				description: 'Transaction references (idents) to watch, separated by commas',
				displayOptions: { show: { watch: ['idents', 'both'] } },
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: [
					{ name: 'New Transaction', value: 'new', description: 'A purchase appears for the first time' },
					{
						name: 'Other Status Change',
						value: 'otherChange',
						description: 'Any other status change, e.g. failed → successful',
					},
					{ name: 'Transaction Completed', value: 'completed', description: 'Processing → successful' },
					{ name: 'Transaction Failed', value: 'failed', description: 'Processing → failed' },
					{ name: 'Transaction Reversed', value: 'reversed', description: 'Successful → failed' },
				],
				default: ['new', 'completed', 'failed', 'reversed'],
				description: 'Which events start the workflow',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Emit Existing on First Poll',
						name: 'emitExisting',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll after activation emits the transactions it finds (otherwise it only remembers them)',
					},
					{
						displayName: 'Max Tracked Transactions',
						name: 'maxTracked',
						type: 'number',
						typeOptions: { minValue: 20, maxValue: 5000 },
						default: 500,
						description:
							"How many transactions the trigger remembers between polls (bounds the workflow's stored data)",
					},
					{
						displayName: 'Pages to Scan',
						name: 'pages',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 10 },
						default: 1,
						description: 'How many pages of recent transactions (15 per page) each poll reads',
					},
					{
						displayName: 'Watch Changes For (Hours)',
						name: 'watchHours',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 720 },
						default: 24,
						description:
							'How long after its last change a transaction is still re-checked for another change (e.g. a ' +
							'reversal) once it is older than Pages to Scan. Each poll re-reads up to 20 more pages (300 ' +
							'transactions) of them and goes on from there at the next poll.',
					},
				],
			},
		],
	};

	methods = { credentialTest: { vtuApiTest } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const settings: PollSettings = {
			product: this.getNodeParameter('product', 'data') as Product,
			watch: this.getNodeParameter('watch', 'recent') as PollSettings['watch'],
			idents: String(this.getNodeParameter('idents', '') ?? '')
				.split(/[,\s]+/)
				.map((s) => s.trim())
				.filter(Boolean),
			events: this.getNodeParameter('events', []) as TriggerEvent[],
			pages: Math.min(10, Math.max(1, Number(options.pages ?? 1) || 1)),
			maxTracked: Math.min(5000, Math.max(20, Number(options.maxTracked ?? 500) || 500)),
			emitExisting: options.emitExisting === true,
			refreshLimit: 20,
			watchHours: Math.min(720, Math.max(1, Number(options.watchHours ?? 24) || 24)),
			now: Date.now(),
		};
		try {
			const client = await getClient(this);
			if (this.getMode() === 'manual') {
				// A manual test shows the current transactions instead of nothing (and changes no state).
				const { records, missing } = await fetchCurrent(client, settings);
				// marked as sample data, so a workflow can take no action on a manual test (IF sample is not true)
				const items: IDataObject[] = records.map((r) => ({ event: 'current', sample: true, ...resultJson(r) }));
				for (const ident of missing)
					items.push({
						event: 'current',
						sample: true,
						ident,
						status: null,
						error: 'No transaction with this reference was found',
					});
				if (items.length === 0) {
					items.push({ event: 'current', sample: true, message: `No ${settings.product} transactions yet` });
				}
				return [this.helpers.returnJsonArray(items)];
			}
			const state = this.getWorkflowStaticData('node') as unknown as TriggerState;
			state.v = 1;
			const events = await pollOnce(client, state, settings);
			if (events.length === 0) return null;
			return [this.helpers.returnJsonArray(events)];
		} catch (error) {
			throw toNodeError(this.getNode(), error);
		}
	}
}
