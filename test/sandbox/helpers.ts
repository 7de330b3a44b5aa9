/** Shared helpers for the sandbox tests: real HTTP over fetch against an in-process sandbox. */
import { SandboxAdmin } from '../../sandbox/admin-client';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/server';

export interface Res {
	status: number;
	headers: Headers;
	text: string;
	/** Parsed JSON, or undefined when the body is not JSON. */
	json: any;
}

export interface Call {
	token?: string | null;
	body?: unknown;
	headers?: Record<string, string>;
}

export async function call(sb: Sandbox, method: string, path: string, opts: Call = {}): Promise<Res> {
	const token = opts.token === undefined ? sb.demo.token : opts.token;
	const headers: Record<string, string> = { accept: 'application/json', ...(opts.headers ?? {}) };
	if (token !== null) headers.authorization = `Token ${token}`;
	if (opts.body !== undefined) headers['content-type'] = 'application/json';
	const res = await fetch(sb.baseUrl + path, {
		method,
		headers,
		redirect: 'manual',
		body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
	});
	const text = await res.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.status, headers: res.headers, text, json };
}

export interface Env {
	sb: Sandbox;
	admin: SandboxAdmin;
	get: (path: string, opts?: Call) => Promise<Res>;
	post: (path: string, body: unknown, opts?: Call) => Promise<Res>;
}

/** Start a sandbox for the file (beforeAll) and stop it (afterAll); reset between tests. */
export function useSandbox(opts: SandboxOptions = {}): Env {
	const env = {} as Env;
	beforeAll(async () => {
		env.sb = await startSandbox({ port: 0, ...opts });
		env.admin = new SandboxAdmin(env.sb.baseUrl, env.sb.adminKey);
		env.get = (path, o) => call(env.sb, 'GET', path, o);
		env.post = (path, body, o) => call(env.sb, 'POST', path, { ...o, body });
	});
	beforeEach(async () => {
		await env.admin.reset();
	});
	afterAll(async () => {
		await env.sb.close();
	});
	return env;
}

export const MTN_1GB_SME = { network: 1, plan: 2, mobile_number: '08031234567', Ported_number: false };
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Retries an assertion until it passes or `ms` elapse: settle timers fire late on a loaded machine. */
export async function eventually(check: () => unknown, ms = 5000): Promise<void> {
	const deadline = Date.now() + ms;
	for (;;) {
		try {
			await check();
			return;
		} catch (error) {
			if (Date.now() > deadline) throw error;
			await sleep(50);
		}
	}
}
