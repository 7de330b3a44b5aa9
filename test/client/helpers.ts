/** Shared helpers: an in-process sandbox, its admin client, and a VtuClient over a counting transport. */
import { SandboxAdmin } from '../../sandbox/admin-client';
import { type Sandbox, startSandbox } from '../../sandbox/server';
import {
	VtuClient,
	type VtuClientOptions,
	createAxiosTransport,
	clearCatalogCache,
	type PurchaseRequest,
	type Transport,
	type TransportRequest,
} from '../../client';

export type Dialect = 'seed' | 'family';
export const DIALECTS: Dialect[] = ['seed', 'family'];

export interface Counting {
	transport: Transport;
	requests: TransportRequest[];
	posts(): TransportRequest[];
	reset(): void;
}

export function countingTransport(inner: Transport = createAxiosTransport()): Counting {
	const requests: TransportRequest[] = [];
	return {
		requests,
		transport: (req) => {
			requests.push(req);
			return inner(req);
		},
		posts: () => requests.filter((r) => r.method === 'POST'),
		reset: () => {
			requests.length = 0;
		},
	};
}

export interface Logs {
	lines: string[];
	logger: Required<NonNullable<VtuClientOptions['logger']>>;
}

export function captureLogs(): Logs {
	const lines: string[] = [];
	const rec = (lvl: string) => (msg: string, meta?: Record<string, unknown>) =>
		lines.push(`${lvl} ${msg} ${meta ? JSON.stringify(meta) : ''}`);
	return { lines, logger: { debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') } };
}

export interface Env {
	sb: Sandbox;
	admin: SandboxAdmin;
	client: VtuClient;
	counting: Counting;
	logs: Logs;
	make(opts?: Partial<VtuClientOptions>): VtuClient;
	close(): Promise<void>;
}

export async function startEnv(dialect: Dialect, opts: Partial<VtuClientOptions> = {}): Promise<Env> {
	clearCatalogCache();
	const sb = await startSandbox({ port: 0, dialect });
	const admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
	const counting = countingTransport();
	const logs = captureLogs();
	const make = (o: Partial<VtuClientOptions> = {}) =>
		new VtuClient({
			baseUrl: sb.baseUrl,
			token: sb.demo.token,
			transport: counting.transport,
			logger: logs.logger,
			timeoutMs: 5_000,
			...opts,
			...o,
			// each test's sandbox has one buyer (this process) unless the test says otherwise; its vendor creates
			// the record inside the POST (no latency fault), so 1 s bounds its processing unless a test says otherwise
			reconcile: { sharedAccount: false, maxProcessingMs: 1_000, ...opts.reconcile, ...o.reconcile },
		});
	return { sb, admin, client: make(), counting, logs, make, close: () => sb.close() };
}

const BUY_PATHS: Record<string, string> = {
	data: '/api/data/',
	airtime: '/api/topup/',
	cable: '/api/cablesub/',
	electricity: '/api/billpayment/',
	exam_pin: '/api/epin/',
	recharge_card: '/api/rechargepin/',
};

/**
 * A purchase made by "another process" of the same account: the exact body the client would send,
 * POSTed over plain fetch, so no VtuClient of this process knows (or claims) its record. Returns its id.
 */
export async function rawBuy(
	client: VtuClient,
	token: string,
	req: PurchaseRequest,
	headers: Record<string, string> = {},
): Promise<number> {
	const { request } = await client.quote(req);
	const res = await fetch(`${client.baseUrl}${BUY_PATHS[req.product]}`, {
		method: 'POST',
		headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json', ...headers },
		body: JSON.stringify(request),
	});
	const body = (await res.json()) as { id: number };
	if (res.status !== 201) throw new Error(`raw purchase failed: HTTP ${res.status} ${JSON.stringify(body)}`);
	return body.id;
}
