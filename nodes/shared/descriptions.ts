import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { PRODUCT_SPECS } from '../../client/products/registry';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './concurrency';

type Show = Record<string, Array<string | number | boolean>>;

/**
 * A limit the workflow's builder sets: no expression, so n8n offers no "Let the model define this parameter"
 * button on it and no AI agent ($fromAI) can move it.
 */
function locked(option: INodeProperties): INodeProperties {
	return { ...option, noDataExpression: true };
}

/** Options shared by every purchase operation (runner.ts reads them): all locked. */
const SHARED_OPTIONS: INodeProperties[] = [
	locked({
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
		default: DEFAULT_CONCURRENCY,
		description:
			'The most items bought at the same time. Not set: the node starts with 10 and sends more, up to ' +
			'1000, only while the site answers quickly and cleanly; a run within 15 minutes of the last one ' +
			'to the same site (Base URL) starts where that one got without trouble. Set: it starts at this ' +
			'number. Either way it slows down on "too many requests" (HTTP 429: to what the site is already handling), ' +
			'server errors or slow answers (to 0.7×). ' +
			'Set it to what the site allows if you know it. Results stay one per input item, in input order.',
	}),
	locked({
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description:
			'Whether to only check and price every item without buying anything. Outputs one summary: can ' +
			'it run, rows, total, wallet balance, short by how much, and every bad row with its reason.',
	}),
	locked({
		displayName: 'Dry Run Detail Per Row',
		name: 'dryRunDetail',
		type: 'boolean',
		default: false,
		description: 'Whether a dry run also outputs one item per row (its price, or why it is bad) after the summary',
	}),
	locked({
		displayName: 'Retry If Not Charged',
		name: 'retryIfNotCharged',
		type: 'boolean',
		default: false,
		description:
			'Whether to send a purchase once more when its first attempt got no answer and the transaction ' +
			'list proves nothing was charged',
	}),
	locked({
		displayName: 'Skip If Already Bought Within (Minutes)',
		name: 'skipIfBoughtWithinMinutes',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description:
			"Before buying, look each item up in the account's transactions of the last N minutes; an item " +
			'already bought is output with path "existing" and its record, and nothing is sent for it. A ' +
			'retried execution always does this (24 hours back unless set here). Two genuine identical ' +
			'orders within the window cannot be told apart: the second is skipped. 0 = off for ordinary ' +
			'runs.',
	}),
	locked({
		displayName: 'Spend Cap (₦)',
		name: 'spendCap',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		description:
			'Most this node may spend in one execution, in naira. Items that would go over it are refused ' +
			'before anything is sent. 0 means no cap.',
	}),
	locked({
		displayName: 'Wait for Final Status',
		name: 'waitForFinal',
		type: 'boolean',
		default: false,
		description:
			'Whether to keep checking a "processing" purchase until it is successful or failed (up to the wait timeout)',
	}),
	locked({
		displayName: 'Wait Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 120,
		description: 'How long Wait for Final Status keeps checking',
	}),
];

/** The Options collection of a purchase operation: the shared options, then the node's own. */
export function purchaseOptions(show: Show, extra: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [...SHARED_OPTIONS, ...extra.map((o) => (LOCKED_EXTRAS.has(o.name) ? locked(o) : o))],
	};
}

/**
 * Options of a node's own (besides the shared ones above) that are limits or vendor settings: fixed by
 * the builder, never by an expression, so an AI agent using the node as a tool cannot move them (n8n
 * offers "Let the model define this parameter" only on fields that accept expressions).
 */
const LOCKED_EXTRAS = new Set([
	'validateFirst',
	'batchSize',
	'oncePerNumber',
	'sendRate',
	'sendWindowStart',
	'sendWindowEnd',
]);

/** Every option an AI agent may not fill (tested; runner.ts refuses a $fromAI written into one by hand). */
export const LOCKED_OPTIONS = [
	'concurrency',
	'dryRun',
	'dryRunDetail',
	'retryIfNotCharged',
	'skipIfBoughtWithinMinutes',
	'spendCap',
	'waitForFinal',
	'waitTimeout',
	...LOCKED_EXTRAS,
];

export const phoneField = (
	show: Show,
	description = 'Mobile number to credit, e.g. 08031234567 or +234 803 123 4567',
): INodeProperties => ({
	displayName: 'Phone Number',
	name: 'phone',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 08031234567',
	description,
	displayOptions: { show },
});

export const portedField = (show: Show): INodeProperties => ({
	displayName: 'Ported Number',
	name: 'ported',
	type: 'boolean',
	default: false,
	description:
		'Whether the number was ported to another network (skips the check that the number belongs to the chosen network)',
	displayOptions: { show },
});

/**
 * A required dropdown filled from the site's catalogue (`loader`, a loadOptions method), that also takes an
 * ID or a name from an expression. `what` says what is listed.
 */
export function catalogueField(
	name: string,
	label: string,
	what: string,
	show: Show,
	loader: string,
	dependsOn?: string[],
): INodeProperties {
	return {
		displayName: `${label} Name or ID`,
		name,
		type: 'options',
		typeOptions: { loadOptionsMethod: loader, ...(dependsOn ? { loadOptionsDependsOn: dependsOn } : {}) },
		// n8n's editor checks a mapped value against the list loaded for the current settings and shows "The
		// value … is not supported!" when it is not there (e.g. the plan list of a network that is itself an
		// expression); the node checks every value itself when it runs (client/input.ts), so the editor's check is off
		allowArbitraryValues: true,
		default: '',
		required: true,
		description:
			`${what}. Choose from the list, or specify an ID using an ` +
			'<a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show },
	};
}

export const networkField = (show: Show): INodeProperties =>
	catalogueField('network', 'Network', 'Mobile network', show, 'getNetworks');

/** A whole-number quantity within the product table's limits. */
export function quantityField(
	label: string,
	limits: { min: number; max: number },
	description: string,
	show: Show,
): INodeProperties {
	return {
		displayName: label,
		name: 'quantity',
		type: 'number',
		typeOptions: { minValue: limits.min, maxValue: limits.max },
		default: 1,
		description,
		displayOptions: { show },
	};
}

/** "Limit" of a listing operation. */
export const limitField = (show: Show): INodeProperties => ({
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show },
});

/** "Get transaction" fields of one product: by ID or by ident. */
export function transactionLookupFields(show: Show): INodeProperties[] {
	return [
		{
			displayName: 'Look Up By',
			name: 'lookupBy',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Transaction ID', value: 'id', description: 'The numeric ID returned by a purchase' },
				{ name: 'Reference (Ident)', value: 'ident', description: 'The server reference returned by a purchase' },
			],
			default: 'id',
			displayOptions: { show },
		},
		{
			displayName: 'Transaction ID or Reference',
			name: 'transactionId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 1234 or Data9b8951f68-352',
			description: 'The transaction to read, as returned by the purchase (field "ID" or "ident")',
			displayOptions: { show },
		},
	];
}

/** The "Product" dropdown of the nodes that serve several products (default: data). */
export function productField(options: INodePropertyOptions[], description: string, show?: Show): INodeProperties {
	return {
		displayName: 'Product',
		name: 'product',
		type: 'options',
		options,
		default: 'data',
		description,
		...(show ? { displayOptions: { show } } : {}),
	};
}

/** Every product by its title, in n8n's alphabetical order. */
export const PRODUCT_OPTIONS: INodePropertyOptions[] = PRODUCT_SPECS.map((p) => ({
	name: p.title,
	value: p.product,
})).sort((a, b) => a.name.localeCompare(b.name));

/** Products whose purchases are records to look up one by one (a batch product's are history rows). */
export const RECORD_PRODUCT_OPTIONS: INodePropertyOptions[] = PRODUCT_OPTIONS.filter((o) =>
	PRODUCT_SPECS.some((s) => s.product === o.value && !('batch' in s)),
);
