import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeOperationError, sleepWithAbort } from 'n8n-workflow';

import { VtuClient } from '../../client/core';
import type { ReconcileSettings } from '../../client/purchase';
import { VENDOR_PROCESSING_SECONDS_DEFAULT } from '../../credentials/VtuApi.credentials';
import type { ContextHolder, VtuContext } from './transport';
import { CREDENTIAL_NAME, createN8nTransport, decryptedCredential } from './transport';

interface CacheEntry {
	client: VtuClient;
	holder: ContextHolder;
	createdAt: number;
}

const cache = new Map<string, CacheEntry>();
const MAX_ENTRIES = 32;
const MAX_AGE_MS = 30 * 60 * 1000;

/** FNV-1a: a cache key that does not keep the token itself in a Map key. */
function fingerprint(s: string): string {
	let h = 0x811c9dc5;
	for (let i = 0; i < s.length; i++) {
		h ^= s.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return (h >>> 0).toString(36) + s.length.toString(36);
}

function prune(now: number): void {
	for (const [k, v] of cache) {
		if (now - v.createdAt > MAX_AGE_MS) cache.delete(k);
	}
	while (cache.size > MAX_ENTRIES) {
		const oldest = cache.keys().next().value;
		if (oldest === undefined) break;
		cache.delete(oldest);
	}
}

function executionKey(ctx: VtuContext): string {
	const withId = ctx as { getExecutionId?: () => string | undefined };
	try {
		const id = typeof withId.getExecutionId === 'function' ? withId.getExecutionId() : undefined;
		return id ? `exec:${id}` : 'shared';
	} catch {
		return 'shared';
	}
}

export interface VtuCredentials {
	baseUrl: string;
	apiToken: string;
	/** Other buyers may share the token (client option reconcile.sharedAccount; client/API.md "Who owns a record"). */
	sharedAccount: boolean;
	/** Send a fresh customer_ref with every purchase (client option customerRef). */
	customerRef: boolean;
	/** The vendor's processing bound (client option reconcile.maxProcessingMs). */
	processingMs: number;
	/** The site's SMS rates in naira, where the credential sets them (client option smsRates). */
	smsRates: { perPage?: string; dndPerPage?: string };
	/** Everything n8n returned (handed back to httpRequestWithAuthentication). */
	decrypted: ICredentialDataDecryptedObject;
}

export async function getVtuCredentials(ctx: VtuContext): Promise<VtuCredentials> {
	let creds: ICredentialDataDecryptedObject;
	try {
		creds = await ctx.getCredentials(CREDENTIAL_NAME);
	} catch (error) {
		throw new NodeOperationError(
			ctx.getNode(),
			'No VTU API credential is selected. Choose or create a "VTU API" credential in the node.',
			{ description: (error as Error).message },
		);
	}
	const baseUrl = String(creds.baseUrl ?? '').trim();
	const apiToken = String(creds.apiToken ?? '').trim();
	if (!baseUrl || !apiToken) {
		throw new NodeOperationError(
			ctx.getNode(),
			'The VTU API credential is incomplete. Fill in both Base URL and API Token.',
		);
	}
	// older credentials lack the two switches: the safe reading (other buyers may exist; no reference)
	const sharedAccount = creds.sharedAccount !== false;
	const customerRef = creds.customerRef === true;
	const seconds = Number(creds.vendorProcessingSeconds ?? VENDOR_PROCESSING_SECONDS_DEFAULT);
	// older credentials lack the field, and a blank or negative one is no bound: the client's default
	const processingMs = Math.round(
		(Number.isFinite(seconds) && seconds > 0 ? seconds : VENDOR_PROCESSING_SECONDS_DEFAULT) * 1000,
	);
	const rate = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
	const smsRates = { perPage: rate(creds.smsRate), dndPerPage: rate(creds.smsDndRate) };
	return { baseUrl, apiToken, sharedAccount, customerRef, processingMs, smsRates, decrypted: creds };
}

export interface ClientOptions {
	/** Recipients per sendsms POST; a non-default value gets its own client. */
	smsBatchSize?: number;
	timeoutMs?: number;
}

/**
 * One client per execution (and credential), so a run of many items and nodes reads the
 * catalogue once. Requests go through the node that is running now (n8n's auth, proxy, abort).
 */
export async function getClient(ctx: VtuContext, opts: ClientOptions = {}): Promise<VtuClient> {
	return (await getClientEntry(ctx, opts)).client;
}

async function getClientEntry(ctx: VtuContext, opts: ClientOptions = {}): Promise<CacheEntry> {
	const { baseUrl, apiToken, sharedAccount, customerRef, processingMs, smsRates, decrypted } =
		await getVtuCredentials(ctx);
	const now = Date.now();
	prune(now);
	const key = [
		executionKey(ctx),
		baseUrl,
		fingerprint(apiToken),
		sharedAccount,
		customerRef,
		processingMs,
		smsRates.perPage ?? '',
		smsRates.dndPerPage ?? '',
		opts.smsBatchSize ?? '',
		opts.timeoutMs ?? '',
	].join('|');
	let entry = cache.get(key);
	if (!entry) {
		const holder: ContextHolder = { ctx };
		// maxProcessingMs: the fixed client option (client/API.md); typed wider until every client carries it
		const reconcile: Partial<ReconcileSettings> & { maxProcessingMs: number } = {
			sharedAccount,
			maxProcessingMs: processingMs,
		};
		const client = new VtuClient({
			baseUrl,
			token: apiToken,
			transport: createN8nTransport(holder),
			sleep: sleepWithAbort,
			reconcile,
			customerRef,
			smsRates,
			...(opts.smsBatchSize ? { smsBatchSize: opts.smsBatchSize } : {}),
			...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
		});
		entry = { client, holder, createdAt: now };
		cache.set(key, entry);
	}
	entry.holder.ctx = ctx;
	entry.holder.credentials = decryptedCredential(ctx, decrypted);
	return entry;
}
