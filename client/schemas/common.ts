/** Lenient zod building blocks for the family's varying wire shapes. */
import { z } from 'zod';
import { tryParseKobo } from '../money';
import type { TransactionStatus } from '../types';

/** int or numeric string → number */
export const zId = z.union([
	z.number().int(),
	z
		.string()
		.regex(/^\s*\d+\s*$/)
		.transform((s) => Number(s.trim())),
]);

/** Amount as number or string with ₦/N/NGN prefix → kobo (rounded half-up at 2 decimals). */
export const zKobo = z.union([z.number(), z.string()]).transform((v, ctx) => {
	const k = tryParseKobo(v, true);
	if (k === null) {
		ctx.addIssue({ code: z.ZodIssueCode.custom, message: `not an amount: ${String(v).slice(0, 40)}` });
		return z.NEVER;
	}
	return k;
});

const STATUS_MAP: Record<string, TransactionStatus> = {
	successful: 'successful',
	success: 'successful',
	succeeded: 'successful',
	completed: 'successful',
	complete: 'successful',
	delivered: 'successful',
	sent: 'successful',
	processing: 'processing',
	pending: 'processing',
	initiated: 'processing',
	queued: 'processing',
	'in progress': 'processing',
	failed: 'failed',
	fail: 'failed',
	failure: 'failed',
	error: 'failed',
	reversed: 'failed',
	refunded: 'failed',
	cancelled: 'failed',
	canceled: 'failed',
};

export function normalizeStatus(v: unknown): TransactionStatus | null {
	if (typeof v !== 'string') return null;
	return STATUS_MAP[v.trim().toLowerCase()] ?? null;
}

export const zStr = z
	.union([z.string(), z.number(), z.null()])
	.optional()
	.transform((v) => (v == null ? '' : String(v)));

/** Issue list → short text for bad_response messages. */
export function zodSummary(err: z.ZodError): string {
	return err.issues
		.slice(0, 3)
		.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
		.join('; ');
}
