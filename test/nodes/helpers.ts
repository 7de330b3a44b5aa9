/** Sandbox per test file (real HTTP on loopback), reset before each test; the demo API user. */
import { SandboxAdmin } from '../../sandbox/admin-client';
import { processAccounts } from '../../client/purchase';
import { forgetPaces } from '../../nodes/shared/paceMemory';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/server';
import type { Creds } from './engine';

export interface VtuEnv {
	sb: Sandbox;
	admin: SandboxAdmin;
	creds: () => Creds;
	balance: () => Promise<number>;
}

export function useVtuSandbox(opts: SandboxOptions = {}): VtuEnv {
	const env = {} as VtuEnv;
	beforeAll(async () => {
		env.sb = await startSandbox({ port: 0, seed: 7, ...opts });
		env.admin = new SandboxAdmin(env.sb.baseUrl, env.sb.adminKey);
		env.creds = () => ({ baseUrl: env.sb.baseUrl, apiToken: env.sb.demo.token });
		env.balance = () => env.admin.balanceKobo(env.sb.demo.username);
	});
	beforeEach(async () => {
		await env.admin.reset();
		processAccounts().clear(); // a reset sandbox numbers records from 1 again: forget this process's claims
		forgetPaces(); // every test starts cold unless it runs twice itself
	});
	afterAll(async () => {
		await env.sb.close();
	});
	return env;
}

/** Asserts that no output/error text contains the token. */
export function expectNoToken(token: string, ...values: unknown[]): void {
	for (const v of values) {
		const s =
			typeof v === 'string' ? v : JSON.stringify(v, Object.getOwnPropertyNames(v ?? {}).length ? undefined : undefined);
		expect(s ?? '').not.toContain(token);
	}
}
