/**
 * The transport is ONE function: request in, raw response out. The client parses and classifies.
 * A transport must never throw an error that carries request headers; it throws `TransportError`
 * saying whether the request may have reached the server.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface TransportRequest {
	method: HttpMethod;
	/** Absolute URL without the query string. */
	url: string;
	headers: Record<string, string>;
	query?: Record<string, string>;
	/** Already-serialised JSON body (POST/PUT). */
	body?: string;
	timeoutMs: number;
	signal?: AbortSignal;
}

export interface TransportResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

export type TransportFailure =
	| 'refused' // connection refused: never sent
	| 'dns' // name resolution failed: never sent
	| 'timeout' // maybe sent
	| 'reset' // connection reset / socket hang up: maybe sent
	| 'aborted' // caller aborted (signal): maybe sent
	| 'other'; // unknown: maybe sent

export class TransportError extends Error {
	readonly kind: TransportFailure;
	/** false only when the request provably never reached the server (refused, DNS). */
	readonly mayHaveReachedServer: boolean;
	constructor(kind: TransportFailure, message: string, mayHaveReachedServer?: boolean) {
		super(message);
		this.name = 'TransportError';
		this.kind = kind;
		this.mayHaveReachedServer = mayHaveReachedServer ?? !(kind === 'refused' || kind === 'dns');
	}
}

/** Classify a Node/axios error code into a TransportFailure. */
export function classifyErrorCode(code: string | undefined, timedOut = false): TransportFailure {
	if (timedOut) return 'timeout';
	switch (code) {
		case 'ECONNREFUSED':
			return 'refused';
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
		case 'EAI_NONAME':
			return 'dns';
		case 'ETIMEDOUT':
		case 'ECONNABORTED':
		case 'ESOCKETTIMEDOUT':
			return 'timeout';
		case 'ECONNRESET':
		case 'EPIPE':
		case 'ERR_SOCKET_CLOSED':
		case 'UND_ERR_SOCKET':
			return 'reset';
		case 'ERR_CANCELED':
		case 'ABORT_ERR':
			return 'aborted';
		default:
			return 'other';
	}
}

export function buildQuery(query?: Record<string, string>): string {
	if (!query) return '';
	const parts: string[] = [];
	for (const [k, v] of Object.entries(query)) {
		if (v === undefined || v === null) continue;
		parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
	}
	return parts.length ? `?${parts.join('&')}` : '';
}
