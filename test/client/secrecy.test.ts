/** The token never appears in an error message, toJSON(), util.inspect() or a log line, for every error class. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { createAxiosTransport, createNodeTransport, VtuError, type Transport } from '../../client';
import { captureLogs, startEnv, type Env } from './helpers';

const TOKEN = 'c0ffee'.repeat(6) + 'beef'; // 40 hex, recognisable
const WRONG = 'badc0de'.repeat(5) + 'faded'; // never registered on the server

describe.each([
	['axios', createAxiosTransport],
	['node', createNodeTransport],
] as Array<[string, () => Transport]>)('token secrecy (%s transport)', (_name, mk) => {
	let env: Env;
	let garbage: http.Server;
	let garbageUrl: string;
	beforeAll(async () => {
		env = await startEnv('family');
		await env.admin.createUser({ username: 'secret', balance: '5000', token: TOKEN });
		garbage = http.createServer((_q, s) => s.writeHead(200, { 'content-type': 'application/json' }).end('{"oops": '));
		await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', r));
		garbageUrl = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await env.close();
		await new Promise((r) => garbage.close(r));
	});

	const check = (e: unknown, lines: string[], secret: string) => {
		expect(e).toBeInstanceOf(VtuError);
		const err = e as VtuError;
		const surfaces = [
			err.message,
			String(err.stack),
			JSON.stringify(err),
			JSON.stringify(err.toJSON()),
			inspect(err, { depth: Infinity, showHidden: true }),
			String(err),
			lines.join('\n'),
		];
		for (const s of surfaces) expect(s).not.toContain(secret);
		return err;
	};

	const cases: Array<[string, string, (logs: ReturnType<typeof captureLogs>) => Promise<unknown>]> = [
		['401 auth', 'auth', (l) => env.make({ token: WRONG, transport: mk(), logger: l.logger }).user.get()],
		[
			'403 forbidden',
			'forbidden',
			async (l) => {
				await env.admin.updateUser('secret', { whitelist: ['10.1.2.3'] });
				try {
					return await env.make({ token: TOKEN, transport: mk(), logger: l.logger }).user.get();
				} finally {
					await env.admin.updateUser('secret', { whitelist: [] });
				}
			},
		],
		[
			'400 insufficient',
			'insufficient_balance',
			(l) =>
				env
					.make({ token: TOKEN, transport: mk(), logger: l.logger })
					.data.buy({ network: 'MTN', plan: 9 - 5, phone: '08031234567' })
					.then(() =>
						env.make({ token: TOKEN, transport: mk(), logger: l.logger }).examPins.buy({ exam: 'WAEC', quantity: 5 }),
					),
		],
		[
			'500 server',
			'server',
			async (l) => {
				await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'error_before', count: 1 });
				return env.make({ token: TOKEN, transport: mk(), logger: l.logger }).user.get();
			},
		],
		[
			'timeout',
			'network',
			async (l) => {
				// a read is retried after a timeout: every attempt (3 by default) times out, each logged
				await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'timeout_after', count: 3 });
				return env.make({ token: TOKEN, transport: mk(), logger: l.logger, timeoutMs: 200 }).user.get();
			},
		],
		[
			'refused',
			'network',
			(l) =>
				env
					.make({
						baseUrl: 'http://127.0.0.1:1',
						token: TOKEN,
						transport: mk(),
						logger: l.logger,
						retry: { maxAttempts: 1 },
					})
					.user.get(),
		],
		[
			'bad_response',
			'bad_response',
			(l) => env.make({ baseUrl: garbageUrl, token: TOKEN, transport: mk(), logger: l.logger }).user.get(),
		],
		[
			'purchase not_charged',
			'not_charged',
			async (l) => {
				await env.admin.addFault({ endpoint: 'POST /api/epin/', kind: 'error_before', count: 1 });
				return env
					.make({ token: TOKEN, transport: mk(), logger: l.logger, reconcile: { waitMs: 0, maxProcessingMs: 0 } })
					.examPins.buy({ exam: 'NECO', quantity: 1 });
			},
		],
		[
			'invalid_input (local)',
			'invalid_input',
			(l) =>
				env
					.make({ token: TOKEN, transport: mk(), logger: l.logger })
					.data.buy({ network: 'MTN', plan: 2, phone: TOKEN }),
		],
	];

	test.each(cases)('%s', async (_n, code, run) => {
		const logs = captureLogs();
		const e = await run(logs).then(
			() => {
				throw new Error('expected an error');
			},
			(x) => x,
		);
		const err = check(e, logs.lines, code === 'auth' ? WRONG : TOKEN);
		expect(err.code).toBe(code);
		expect(logs.lines.join('\n')).not.toContain(TOKEN);
	});
});
