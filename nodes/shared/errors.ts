import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { VtuError, redact } from '../../client/errors';
import { readableCandidate } from './unclear';

/**
 * What to do next, per client error code (the client's own message says what happened; a 403's message
 * already says what to do, so it has no hint here).
 */
const HINTS: Record<string, string> = {
	auth: "Open the VTU API credential and paste the token again from the site's API access page.",
	insufficient_balance: 'Fund the wallet on the VTU site, then run the node again.',
	invalid_input: 'Correct the value in the node or in the input item.',
	not_found: 'Check the ID or reference and the product: records are only visible to the account that made them.',
	rate_limited: "The site is limiting requests: lower the node's Concurrency option or wait a minute.",
	server: 'The VTU site failed. Try again later; purchases are never re-sent automatically.',
	bad_response: 'The site answered with something that is not the VTU API. Check the Base URL in the credential.',
	network: 'n8n could not reach the site. Check the Base URL in the credential and that the site is online.',
	not_charged: 'The purchase was not charged (verified in the transaction list), so it is safe to run it again.',
	unknown_outcome:
		'Do NOT buy again yet: check later. Pass this item to VTU Transaction → Resolve Unclear ' +
		'Purchase after its resolvableAfter time (or check the transaction list on the site) to learn ' +
		'whether it went through.',
	spend_cap: 'Raise the Spend Cap option or split the input into smaller runs.',
};

/** A per-item refusal made by the node itself (spend cap, bad parameter). Create with `refuse()`. */
export class ItemRefusal extends Error {
	constructor(
		readonly code: string,
		message: string,
		readonly hint?: string,
	) {
		super(message);
		this.name = 'ItemRefusal';
	}
}

/** n8n's panels number rows from 1: item index 0 is "row 1". */
export function rowText(itemIndex: number): string {
	return `row ${itemIndex + 1}`;
}

const ROW_TAG = /\[row \d+\]$/;

function withItem(message: string, itemIndex?: number): string {
	const m = forBuilder(message);
	if (itemIndex === undefined || ROW_TAG.test(m)) return m;
	return `${m} [${rowText(itemIndex)}]`;
}

/**
 * The client's messages are written for developers (its option and method names); a node says the same in
 * the words of its own fields, so a builder knows which box to change.
 */
const BUILDER_WORDS: Array<[RegExp, string]> = [
	[
		/Pick one from client\.catalog\.dataPlans\([^)]*\)\./g,
		"Choose one from the Plan list (it shows the chosen network's plans).",
	],
	[/a data plan id from client\.catalog\.dataPlans\([^)]*\)/g, 'a plan from the Plan list'],
	[
		/Pick one from client\.catalog\.cable\(\)\./g,
		"Choose one from the Package list (it shows the chosen provider's packages).",
	],
	[/a cable package id from client\.catalog\.cable\(\)/g, 'a package from the Package list'],
	[/Pick one from client\.catalog\.recharge\(\)\./g, 'Choose one from the Denomination list.'],
	[/a denomination id from client\.catalog\.recharge\(\)/g, 'a denomination from the Denomination list'],
	[/client\.reconcile\(request, \{ sentAt \}\) answers it/g, "VTU Transaction's Resolve Unclear Purchase answers it"],
	[/client\.catalog\.\w+\([^)]*\)/g, "the node's list"],
	[/ is bought with client\.buy\./g, ' is bought with its own operation.'],
	[/\(reconcile\.maxProcessingMs\)/g, '(credential setting "Vendor Processing Time")'],
	[/, reconcile\.readBackPages\)/g, ', the most it reads back)'],
	[/ \(reconcile\.readBackPages\)/g, ' (the most it reads back)'],
	[/lower the concurrency\./g, "lower the node's Concurrency option."],
	[/set ported: true/g, 'turn on Ported Number'],
	[/\(reconcile\.sharedAccount\)/g, '(credential setting "Other Buyers Use This Token")'],
	[/reconcile\.sharedAccount/g, 'the credential setting "Other Buyers Use This Token"'],
	// one of a kind is singular (not 21 or 1,001 of them)
	[/(?<![\d,.])1 (row|recipient|number|item|page|request|record)s\b/g, '1 $1'],
	[/(?<![\d,.])1 batches\b/g, '1 batch'],
];

/** Field names the client starts its messages with, as the nodes show them. */
const FIELD_LABELS: Record<string, string> = {
	phone: 'Phone Number',
	plan: 'Plan',
	package: 'Package',
	denomination: 'Denomination',
	network: 'Network',
	amount: 'Amount',
	iuc: 'IUC / Smartcard Number',
	meter: 'Meter Number',
	quantity: 'Quantity',
};

export function forBuilder(message: string): string {
	let m = message;
	for (const [re, words] of BUILDER_WORDS) m = m.replace(re, words);
	const first = /^([a-z]+) /.exec(m);
	if (first && FIELD_LABELS[first[1]]) m = `${FIELD_LABELS[first[1]]} ${m.slice(first[0].length)}`;
	return m;
}

/** Turn anything thrown while handling an item into an n8n error that says what to do. */
export function toNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.message = withItem(error.message, itemIndex);
		return error;
	}
	if (error instanceof VtuError) {
		const hint = HINTS[error.code];
		const parts: string[] = [];
		if (hint) parts.push(hint);
		if (error.serverMessage) parts.push(`The site said: ${error.serverMessage}`);
		const description = parts.join(' ');
		if (error.code === 'invalid_input') {
			return new NodeOperationError(node, withItem(error.message, itemIndex), {
				itemIndex,
				description,
			});
		}
		return new NodeApiError(node, error.toJSON() as JsonObject, {
			message: withItem(error.message, itemIndex),
			description,
			httpCode: error.httpStatus !== undefined ? String(error.httpStatus) : undefined,
			itemIndex,
		});
	}
	if (error instanceof ItemRefusal) {
		return new NodeOperationError(node, withItem(error.message, itemIndex), {
			itemIndex,
			description: error.hint ?? HINTS[error.code],
		});
	}
	const message = redact(error instanceof Error ? error.message : String(error));
	return new NodeOperationError(node, withItem(message, itemIndex), { itemIndex });
}

/** The JSON of a failed row (continueOnFail): `{ error, code, … }`, never the token. */
export function errorJson(error: unknown, itemIndex?: number): IDataObject {
	const out: IDataObject = {};
	if (error instanceof VtuError) {
		out.error = withItem(error.message, itemIndex);
		out.code = error.code;
		if (error.httpStatus !== undefined) out.httpStatus = error.httpStatus;
		if (error.field !== undefined) out.field = error.field;
		if (error.serverMessage !== undefined) out.serverMessage = error.serverMessage;
		if (error.candidates !== undefined) out.candidates = error.candidates.map(readableCandidate);
		const hint = HINTS[error.code];
		if (hint) out.hint = hint;
	} else if (error instanceof ItemRefusal) {
		out.error = withItem(error.message, itemIndex);
		out.code = error.code;
		const hint = error.hint ?? HINTS[error.code];
		if (hint) out.hint = hint;
	} else if (error instanceof NodeApiError) {
		out.error = withItem(redact(error.message), itemIndex);
		out.code = 'api';
		if (error.httpCode) out.httpStatus = Number(error.httpCode);
		if (error.description) out.hint = redact(error.description);
	} else if (error instanceof NodeOperationError) {
		out.error = withItem(redact(error.message), itemIndex);
		out.code = 'invalid_input';
		if (error.description) out.hint = redact(error.description);
	} else {
		out.error = withItem(redact(error instanceof Error ? error.message : String(error)), itemIndex);
		out.code = 'unexpected';
	}
	if (itemIndex !== undefined) {
		out.item = itemIndex;
		out.row = itemIndex + 1;
	}
	return out;
}

/** A refusal to throw from node code: `throw refuse('invalid_input', 'what happened', 'how to fix')`. */
export function refuse(code: string, message: string, hint?: string): ItemRefusal {
	return new ItemRefusal(code, message, hint);
}
