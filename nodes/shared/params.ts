import type { IExecuteFunctions } from 'n8n-workflow';

import { refuse } from './errors';

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
export function idParam(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
): string | number {
	const raw = itemParam(ctx, name, itemIndex, '');
	const v = typeof raw === 'string' ? raw.trim() : raw;
	if (v === '' || v === undefined || v === null) {
		throw refuse('invalid_input',
			`${label} is empty`,
			`Choose a ${label.toLowerCase()} from the list, or set its ID with an expression.`,
		);
	}
	if (typeof v === 'number') return v;
	const s = String(v);
	return /^\d+$/.test(s) ? Number(s) : s;
}

export function stringParam(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
	required = true,
): string {
	const raw = itemParam(ctx, name, itemIndex, '');
	const s = raw === undefined || raw === null ? '' : String(raw).trim();
	if (required && !s) {
		throw refuse('invalid_input', `${label} is empty`, `Fill in ${label} or map it from the input with an expression.`);
	}
	return s;
}

export function positiveIntParam(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
): number {
	const raw = itemParam(ctx, name, itemIndex, 1);
	const n = Number(raw);
	if (!Number.isInteger(n) || n < 1) {
		throw refuse('invalid_input', `${label} must be a whole number of at least 1, got "${String(raw)}"`);
	}
	return n;
}

/** A naira amount as given (number or string); the client parses it exactly. */
export function amountParam(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
): number | string {
	const raw = itemParam(ctx, name, itemIndex, '');
	if (raw === '' || raw === undefined || raw === null) {
		throw refuse('invalid_input', `${label} is empty`, 'Enter an amount in naira, e.g. 500.');
	}
	return typeof raw === 'number' ? raw : String(raw).trim();
}
