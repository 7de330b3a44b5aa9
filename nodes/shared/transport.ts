import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import type { Transport, TransportRequest, TransportResponse } from '../../client/transport';
import { TransportError, buildQuery, classifyErrorCode } from '../../client/transport';

export type VtuContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export const CREDENTIAL_NAME = 'vtuApi';

/** Holds the n8n context the transport currently sends through (the node that runs now). */
export interface ContextHolder {
	ctx: VtuContext;
	/**
	 * The credential n8n decrypted for that node in this run (`getCredentials`, see
	 * `decryptedCredential`). Handed back to `httpRequestWithAuthentication`, which then skips its
	 * own database read and decryption per request; n8n still applies the credential's
	 * `authenticate` (the Authorization header).
	 */
	credentials?: ICredentialsDecrypted;
}

const NETWORK_CODES = [
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EAI_NONAME',
	'ETIMEDOUT',
	'ECONNABORTED',
	'ESOCKETTIMEDOUT',
	'ECONNRESET',
	'EPIPE',
	'ERR_SOCKET_CLOSED',
	'ERR_CANCELED',
	'ABORT_ERR',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_INVALID_URL',
];

/** Find a Node/axios error code on an error or anywhere in its cause chain. */
function findErrorCode(error: unknown): { code?: string; timedOut: boolean } {
	let cur: unknown = error;
	for (let depth = 0; depth < 6 && cur && typeof cur === 'object'; depth++) {
		const e = cur as { code?: unknown; message?: unknown; cause?: unknown };
		if (typeof e.code === 'string' && NETWORK_CODES.includes(e.code)) {
			const timedOut = e.code === 'ECONNABORTED' && typeof e.message === 'string' && /timeout/i.test(e.message);
			return { code: e.code, timedOut };
		}
		cur = e.cause;
	}
	const msg = error instanceof Error ? error.message : String(error);
	const m = /\b(E[A-Z_]{3,})\b/.exec(msg);
	if (m && NETWORK_CODES.includes(m[1])) return { code: m[1], timedOut: false };
	return { code: undefined, timedOut: /timeout/i.test(msg) };
}

function bodyToString(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	return JSON.stringify(body);
}

/**
 * The client's Transport implemented with n8n's `httpRequestWithAuthentication`: n8n applies the
 * credential (Authorization: Token …), its proxy settings, logging and the execution's abort
 * signal. HTTP statuses never throw here (the client classifies them); only failures to talk to
 * the server become a `TransportError` (never carrying request headers).
 *
 * Connections are not reused, and a node cannot change that: n8n builds new http/https agents for
 * every request (1.123: `createHttpProxyAgent` with fixed agent options; 2.41: `buildNodeAgents`,
 * which takes `agentOptions` but still makes a fresh agent), and IHttpRequestOptions accepts no agent.
 * `agentOptions: { keepAlive: true }` would only leave each used socket open in a discarded agent.
 */
export function createN8nTransport(holder: ContextHolder): Transport {
	return async (req: TransportRequest): Promise<TransportResponse> => {
		const headers: Record<string, string> = {};
		for (const [k, v] of Object.entries(req.headers ?? {})) {
			// n8n adds the Authorization header from the credential; never send the client's copy.
			if (k.toLowerCase() !== 'authorization') headers[k] = v;
		}
		const options: IHttpRequestOptions = {
			method: req.method as IHttpRequestMethods,
			url: req.url + buildQuery(req.query),
			headers,
			json: false,
			encoding: 'text',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: req.timeoutMs,
			// Same rule as the client's own transports: a redirected POST must never be repeated as
			// a GET; the client reports the 3xx with its Location instead.
			disableFollowRedirect: true,
		};
		if (req.body !== undefined) options.body = req.body;
		const { ctx, credentials } = holder;
		let res: { body: unknown; headers: Record<string, string | string[] | undefined>; statusCode: number };
		try {
			res = await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				CREDENTIAL_NAME,
				options,
				credentials ? { credentialsDecrypted: credentials } : undefined,
			);
		} catch (error) {
			throw toTransportError(error, req.url);
		}
		return toResponse(res);
	};
}

/**
 * The client's Transport for a credential test: n8n hands that context only its `request` helper
 * (ICredentialTestFunctions; no httpRequest there), which n8n sends with its own HTTP stack, proxy
 * settings included. The credential is not applied by n8n here: the client's Authorization header
 * is sent as is.
 */
export function createCredentialTestTransport(request: ICredentialTestFunctions['helpers']['request']): Transport {
	return async (req: TransportRequest): Promise<TransportResponse> => {
		let res: { body: unknown; headers: Record<string, string | string[] | undefined>; statusCode: number };
		try {
			res = await request({
				method: req.method,
				uri: req.url + buildQuery(req.query),
				headers: req.headers,
				body: req.body,
				json: false,
				resolveWithFullResponse: true,
				simple: false,
				followRedirect: false,
				followAllRedirects: false,
				timeout: req.timeoutMs,
			});
		} catch (error) {
			throw toTransportError(error, req.url);
		}
		return toResponse(res);
	};
}

/** A failure to talk to the server, as the client's TransportError (never carrying request headers). */
function toTransportError(error: unknown, url: string): TransportError {
	const { code, timedOut } = findErrorCode(error);
	return new TransportError(
		classifyErrorCode(code, timedOut),
		`Could not reach ${safeOrigin(url)}${code ? ` (${code})` : ''}`,
		code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ERR_INVALID_URL' ? false : undefined,
	);
}

function toResponse(res: {
	body: unknown;
	headers?: Record<string, string | string[] | undefined>;
	statusCode: number;
}): TransportResponse {
	return {
		status: Number(res.statusCode),
		headers: res.headers ?? {},
		body: bodyToString(res.body),
	};
}

/** The node's credential reference with the data n8n decrypted for it. */
export function decryptedCredential(ctx: VtuContext, data: ICredentialDataDecryptedObject): ICredentialsDecrypted {
	const ref = ctx.getNode().credentials?.[CREDENTIAL_NAME];
	return { id: ref?.id ?? '', name: ref?.name ?? '', type: CREDENTIAL_NAME, data };
}

/** Scheme + host of a URL, for messages (never the query string). */
export function safeOrigin(url: string): string {
	try {
		const u = new URL(url);
		return `${u.protocol}//${u.host}`;
	} catch {
		return 'the Base URL';
	}
}
