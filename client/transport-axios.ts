/**
 * Default transport: axios with keep-alive agents, a per-request timeout, AbortSignal support and
 * maxRedirects 0 (a 301 on a POST is returned, never followed as a GET). Axios errors carry
 * `config.headers` (the token), so they are never rethrown: only a TransportError with the code.
 */
import http from 'node:http';
import https from 'node:https';
import axios, { type AxiosInstance } from 'axios';
import { TransportError, classifyErrorCode, type Transport, type TransportResponse } from './transport';

export interface AxiosTransportOptions {
	maxSockets?: number;
	keepAliveMsecs?: number;
	/** Provide your own axios instance (its interceptors run; redirects are still disabled per request). */
	axiosInstance?: AxiosInstance;
}

export function createAxiosTransport(opts: AxiosTransportOptions = {}): Transport {
	const httpAgent = new http.Agent({
		keepAlive: true,
		maxSockets: opts.maxSockets ?? 64,
		keepAliveMsecs: opts.keepAliveMsecs ?? 1000,
	});
	const httpsAgent = new https.Agent({
		keepAlive: true,
		maxSockets: opts.maxSockets ?? 64,
		keepAliveMsecs: opts.keepAliveMsecs ?? 1000,
	});
	const ax = opts.axiosInstance ?? axios.create();
	return async (req): Promise<TransportResponse> => {
		try {
			const res = await ax.request<string>({
				method: req.method,
				url: req.url,
				params: req.query,
				headers: req.headers,
				data: req.body,
				timeout: req.timeoutMs,
				signal: req.signal,
				httpAgent,
				httpsAgent,
				maxRedirects: 0,
				responseType: 'text',
				transformResponse: [(d: unknown) => d],
				validateStatus: () => true,
				proxy: false,
			});
			const headers: Record<string, string | string[] | undefined> = {};
			const h = res.headers as unknown as Record<string, unknown> & { toJSON?: () => Record<string, unknown> };
			const plain = typeof h.toJSON === 'function' ? h.toJSON() : h;
			for (const [k, v] of Object.entries(plain)) {
				headers[k.toLowerCase()] = Array.isArray(v) ? v.map(String) : v == null ? undefined : String(v);
			}
			return {
				status: res.status,
				headers,
				body: typeof res.data === 'string' ? res.data : res.data == null ? '' : JSON.stringify(res.data),
			};
		} catch (e) {
			// Never rethrow the axios error: it holds the request config including Authorization.
			const code: string | undefined = e?.code ?? e?.cause?.code;
			const timedOut = code === 'ECONNABORTED' && /timeout/i.test(String(e?.message ?? ''));
			let kind = classifyErrorCode(code, timedOut);
			if (axios.isCancel(e) || code === 'ERR_CANCELED') kind = 'aborted';
			throw new TransportError(kind, `${req.method} request failed: ${kind}${code ? ` (${code})` : ''}`);
		}
	};
}
