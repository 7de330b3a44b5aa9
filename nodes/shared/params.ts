import type { IExecuteFunctions } from 'n8n-workflow';

import { refuse } from './errors';

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
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
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
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
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
	const raw = ctx.getNodeParameter(name, itemIndex, 1) as unknown;
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
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (raw === '' || raw === undefined || raw === null) {
		throw refuse('invalid_input', `${label} is empty`, 'Enter an amount in naira, e.g. 500.');
	}
	return typeof raw === 'number' ? raw : String(raw).trim();
}
