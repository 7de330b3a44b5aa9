/**
 * VTU Transaction → Resolve Unclear Purchase: takes the `request`, `sentAt` and `customerRef` of an
 * unknown_outcome item (any buying node, Continue On Fail on) and looks once, without waiting and without
 * buying, whether it was bought. Answers `resolution`: bought (the record), not_bought (proven by the site's
 * records), or still_unclear (with `tryAgainAfter`). Every answer carries the three back, so a still_unclear
 * item can be resolved again as it is.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { VtuClient } from '../../client/core';
import { getVtuCredentials } from '../shared/client';
import { refuse } from '../shared/errors';
import { resultJson } from '../shared/format';
import { readableCandidate, resolveUnclear } from '../shared/unclear';
import { VtuError } from '../../client/errors';

/** How long to wait before looking again when the proof window has passed but reading still failed. */
const RETRY_LATER_MS = 5 * 60_000;

function readRequest(ctx: IExecuteFunctions, i: number): IDataObject {
	let value = ctx.getNodeParameter('unclearRequest', i, '') as unknown;
	if (typeof value === 'string' && value.trim().startsWith('{')) {
		try {
			value = JSON.parse(value);
		} catch {
			/* refused below */
		}
	}
	if (
		typeof value !== 'object' ||
		value === null ||
		Array.isArray(value) ||
		typeof (value as IDataObject).product !== 'string'
	) {
		throw refuse(
			'invalid_input',
			'Request is not the request of an unclear purchase (an object with a product field)',
			'Pass the unknown_outcome item of a buying node (Continue On Fail on) and leave Request as {{ ' +
				'$json.request }}, or map it to that field.',
		);
	}
	return value as IDataObject;
}

function readSentAt(ctx: IExecuteFunctions, i: number): string {
	const raw = ctx.getNodeParameter('sentAt', i, '') as unknown;
	const ms =
		typeof raw === 'string' || raw instanceof Date
			? Date.parse(String(raw instanceof Date ? raw.toISOString() : raw))
			: NaN;
	if (Number.isNaN(ms)) {
		throw refuse(
			'invalid_input',
			`Sent At "${String(raw)}" is not a date and time`,
			'Leave Sent At as {{ $json.sentAt }} (the unknown_outcome item carries it, e.g. 2026-11-24T10:00:00.000Z).',
		);
	}
	return new Date(ms).toISOString();
}

/**
 * The customer_ref the purchase was sent with, or undefined when not known (empty): then records carrying
 * any reference stay candidates, so leaving it out can never prove "not bought" wrongly. An empty value is
 * never read as "sent without one" (that would drop the records carrying a reference, its own included).
 */
function readCustomerRef(ctx: IExecuteFunctions, i: number): string | undefined {
	const raw = ctx.getNodeParameter('customerRef', i, '') as unknown;
	if (raw === null || raw === undefined) return undefined;
	const value = typeof raw === 'string' ? raw.trim() : raw;
	if (value === '') return undefined;
	if (typeof value !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(value)) {
		throw refuse(
			'invalid_input',
			`Customer Reference "${String(raw).slice(0, 80)}" is not a customer_ref (1 to 64 characters, no spaces)`,
			'Leave Customer Reference as its default, which reads the customerRef field of the ' +
				'unknown-outcome item, or empty it.',
		);
	}
	return value;
}

/** One unclear item settled (or not yet). */
export async function resolveItem(ctx: IExecuteFunctions, client: VtuClient, i: number): Promise<IDataObject> {
	const request = readRequest(ctx, i);
	const sentAt = readSentAt(ctx, i);
	const customerRef = readCustomerRef(ctx, i);
	const answer = await resolveUnclear(client, request, sentAt, customerRef);
	const base = { request, sentAt, ...(customerRef !== undefined ? { customerRef } : {}) };
	if (answer.kind === 'bought') return { resolution: 'bought', ...resultJson(answer.record), ...base };
	if (answer.kind === 'not_bought') {
		return {
			resolution: 'not_bought',
			message: answer.error.message,
			hint: "The site's records prove nothing was charged: it is safe to buy it again.",
			...base,
		};
	}
	const { processingMs } = await getVtuCredentials(ctx);
	const proofFrom = Date.parse(sentAt) + processingMs;
	const tryAgainAfter =
		answer.resolvableAfter ?? new Date(Math.max(proofFrom, Date.now() + RETRY_LATER_MS)).toISOString();
	const error = answer.error;
	return {
		resolution: 'still_unclear',
		tryAgainAfter,
		message: error instanceof Error ? error.message : 'Could not tell yet.',
		candidates: error instanceof VtuError ? (error.candidates ?? []).map(readableCandidate) : [],
		hint: 'Do not buy it again yet: run this once more after tryAgainAfter, or check the candidates on the site.',
		...base,
	};
}
