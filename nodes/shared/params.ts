import type { IExecuteFunctions } from 'n8n-workflow';

import { parseBoolean, parseId, shown } from '../../client/core';
import { refuse } from './errors';

/*
 * Parameters are read with the client's own parsers (client/input.ts), so a value typed in a node is
 * accepted or refused exactly as in a client call or in the bot: an id is digits (never Number()'s
 * "0x2" or "1e1"), a yes/no is a boolean. A refusal is the client's invalid_input, named after the field.
 */

/**
 * A whole parameter that is just `{{ $json.field }}` or `{{ $json["Field name"] }}` (the usual
 * way a column is mapped), with the field name captured.
 */
const JSON_FIELD = /^=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\])\s*\}\}$/;

/**
 * A per-item parameter's value. n8n evaluates each expression in an isolated VM, which costs
 * about as much CPU as the purchase request itself (~0.7 ms in n8n 1.123). A parameter that is
 * exactly `{{ $json.field }}` is read from the input item instead: the same value n8n would
 * give (`$json` is the current input item's JSON), without the round trip. Anything else goes
 * through n8n.
 */
export function itemParam(ctx: IExecuteFunctions, name: string, itemIndex: number, fallback: unknown): unknown {
	const raw = ctx.getNodeParameter(name, itemIndex, fallback, { rawExpressions: true }) as unknown;
	const m = typeof raw === 'string' && raw.startsWith('={{') ? JSON_FIELD.exec(raw) : null;
	if (!m) return ctx.getNodeParameter(name, itemIndex, fallback);
	const item = ctx.getInputData()[itemIndex];
	return item ? item.json[m[1] ?? m[2] ?? m[3]] : ctx.getNodeParameter(name, itemIndex, fallback);
}

/**
 * An ID from a dropdown or an expression: a number, a numeric string, or a name the client
 * resolves (e.g. "MTN"). Empty values are refused with how to fix them.
 */
export function idParam(ctx: IExecuteFunctions, name: string, itemIndex: number, label: string): string | number {
	const raw = itemParam(ctx, name, itemIndex, '');
	const v = typeof raw === 'string' ? raw.trim() : raw;
	if (v === '' || v === undefined || v === null) {
		throw refuse(
			'invalid_input',
			`${label} is empty`,
			`Choose a ${label.toLowerCase()} from the list, or set its ID with an expression.`,
		);
	}
	if (typeof v === 'number') return v;
	if (typeof v !== 'string') return v as string; // the client refuses it, saying what to type
	return /^\d+$/.test(v) ? Number(v) : v;
}

/**
 * A catalogue ID (plan, package, denomination) or an order ID: digits or a whole number, as the client
 * reads it. `what` says where to find one, e.g. "the plan ID from the list".
 */
export function catalogueIdParam(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
	what: string,
): number {
	const raw = itemParam(ctx, name, itemIndex, '');
	if (raw === '' || raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
		throw refuse(
			'invalid_input',
			`${label} is empty`,
			`Choose a ${label.toLowerCase()} from the list, or set its ID with an expression.`,
		);
	}
	return parseId(raw, name, what);
}

/**
 * A yes/no parameter: the boolean true or false (an expression giving the text "true" is refused, as in the client).
 */
export function booleanParam(ctx: IExecuteFunctions, name: string, itemIndex: number): boolean {
	return parseBoolean(itemParam(ctx, name, itemIndex, false), name);
}

export function stringParam(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
	required = true,
): string {
	const raw = itemParam(ctx, name, itemIndex, '');
	if (
		raw !== undefined &&
		raw !== null &&
		typeof raw !== 'string' &&
		typeof raw !== 'number' &&
		typeof raw !== 'bigint'
	) {
		throw refuse(
			'invalid_input',
			`${label} must be text, not ${shown(raw)}`,
			`Map ${label} to a text or number field of the input.`,
		);
	}
	const s = raw === undefined || raw === null ? '' : String(raw).trim();
	if (required && !s) {
		throw refuse('invalid_input', `${label} is empty`, `Fill in ${label} or map it from the input with an expression.`);
	}
	return s;
}

export function positiveIntParam(ctx: IExecuteFunctions, name: string, itemIndex: number, label: string): number {
	return parseId(itemParam(ctx, name, itemIndex, 1), name, `${label}: a whole number of at least 1`);
}

/** A naira amount as given (number or string); the client parses it exactly. */
export function amountParam(ctx: IExecuteFunctions, name: string, itemIndex: number, label: string): number | string {
	const raw = itemParam(ctx, name, itemIndex, '');
	if (raw === '' || raw === undefined || raw === null) {
		throw refuse('invalid_input', `${label} is empty`, 'Enter an amount in naira, e.g. 500.');
	}
	// anything but a number or text goes to the client as is: its parser refuses it saying what to type
	return typeof raw === 'string' ? raw.trim() : (raw as number);
}
