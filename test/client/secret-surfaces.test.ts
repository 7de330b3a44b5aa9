/**
 * Every surface a client shows: the token (as given, trimmed, or inside a wrong base URL) and URL
 * credentials never appear in console.log / util.inspect / JSON.stringify of the client or of what it
 * hands the transport, in errors (message, JSON, inspect, cause chain) or in log lines.
 * The first test runs first on purpose: the token inside the base URL of the process's first client.
 */
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { VtuClient, VtuError, createNodeTransport, type TransportRequest } from '../../client';
import { captureLogs, startEnv, type Env } from './helpers';

const TOKEN = 'f00dcafe'.repeat(5); // 40 hex, recognisable
const PASSWORD = 'hunter2-pa55word';

/** Everything an error shows, down its cause chain. */
function errorSurfaces(e: unknown): string[] {
	const out: string[] = [];
	for (let cur = e, depth = 0; cur && depth < 8; cur = (cur as { cause?: unknown }).cause, depth++) {
		const err = cur as Error;
		out.push(
			String(err.message),
			String(err.stack),
			String(err),
			JSON.stringify(err),
			inspect(err, { depth: Infinity, showHidden: true }),
		);
	}
	return out;
}

/** What console.log prints for these values (a real Console writing to a buffer). */
function consoleOutput(...values: unknown[]): string {
	let out = '';
	const stream = new Writable({ write: (chunk, _enc, cb) => ((out += String(chunk)), cb()) });
	new Console({ stdout: stream, stderr: stream }).log(...values);
	return out;
}

function expectNone(secrets: string[], surfaces: string[]): void {
	for (const s of surfaces) for (const secret of secrets) expect(s).not.toContain(secret);
}

async function failure(p: () => unknown): Promise<VtuError> {
	try {
		await p();
	} catch (e) {
		expect(e).toBeInstanceOf(VtuError);
		return e as VtuError;
	}
	throw new Error('expected an error');
}

test("a token inside an invalid base URL of the process's first client is redacted", async () => {
	const e = await failure(() => new VtuClient({ baseUrl: `api.example.com/?token=${TOKEN}`, token: `  ${TOKEN}\n` }));
	expect(e.code).toBe('invalid_input');
	expect(e.field).toBe('baseUrl');
	expect(e.message).toMatch(/must start with http:\/\/ or https:\/\//);
	expectNone([TOKEN], errorSurfaces(e));
});

describe('with the sandbox', () => {
	let env: Env;
	let user: { token: string };
	beforeAll(async () => {
		env = await startEnv('family');
		await env.admin.createUser({ username: 'surfaces', balance: '5000', token: TOKEN });
		user = { token: TOKEN };
	});
	afterAll(() => env.close());

	test('console.log, util.inspect and JSON.stringify of the client show the site, never the token', async () => {
		const sent: TransportRequest[] = [];
		const inner = createNodeTransport();
		const c = env.make({ token: user.token, transport: (r) => (sent.push(r), inner(r)) });
		await c.user.get(); // the client works: the header is sent as usual
		expect(sent[0].headers.Authorization).toBe(`Token ${TOKEN}`);
		const internals = c as unknown as { http: unknown; ctx: unknown; cache: unknown };
		const surfaces = [
			inspect(c),
			inspect(c, { depth: Infinity, showHidden: true }),
			inspect({ nested: [c] }, { depth: Infinity }),
			JSON.stringify(c),
			JSON.stringify({ c }),
			consoleOutput(c),
			consoleOutput('%o', c),
			consoleOutput({ client: c }),
			inspect(internals.http, { showHidden: true, depth: Infinity }),
			JSON.stringify(internals.http),
			inspect(internals.ctx, { depth: Infinity, showHidden: true }),
			inspect(internals.cache, { depth: Infinity, showHidden: true }),
			// what the transport was handed, as a logging transport would print it
			inspect(sent[0], { depth: Infinity }),
			JSON.stringify(sent[0]),
			consoleOutput(sent[0]),
			inspect(sent[0].headers),
			JSON.stringify(sent[0].headers),
		];
		expectNone([TOKEN], surfaces);
		expect(inspect(c)).toBe(`VtuClient { baseUrl: ${JSON.stringify(env.sb.baseUrl)} }`);
		expect(JSON.parse(JSON.stringify(c))).toEqual({ baseUrl: env.sb.baseUrl });
		expect(JSON.stringify(sent[0].headers)).toContain('Token [REDACTED]');
		// the headers still travel: every key a transport iterates is there, nothing extra
		expect(Object.keys(sent[0].headers).sort()).toEqual(['Accept', 'Authorization']);
	});

	test('a base URL with a user name and password is refused at construction; the password is never shown', async () => {
		for (const baseUrl of [
			`https://merchant:${PASSWORD}@example.com`,
			`https://:${PASSWORD}@example.com/api/`,
			`HTTP://merchant:${PASSWORD}@127.0.0.1:1`,
		]) {
			const logs = captureLogs();
			const e = await failure(() => new VtuClient({ baseUrl, token: TOKEN, logger: logs.logger }));
			expect(e.code).toBe('invalid_input');
			expect(e.field).toBe('baseUrl');
			expect(e.message).toMatch(
				/must not contain a user name or password.*Type just the address, e\.g\. https?:\/\/(example\.com|127\.0\.0\.1:1)$/,
			);
			expectNone([PASSWORD, TOKEN], [...errorSurfaces(e), logs.lines.join('\n')]);
		}
		// not even when the rest of the address is wrong too
		const e = await failure(() => new VtuClient({ baseUrl: `htps://merchant:${PASSWORD}@example.com`, token: TOKEN }));
		expect(e.message).toMatch(/must start with http/);
		expectNone([PASSWORD, 'merchant'], errorSurfaces(e));
	});

	test('a token pasted with spaces and a line break works, and its trimmed form is redacted everywhere', async () => {
		const padded = `  ${TOKEN}\r\n`;
		const logs = captureLogs();
		const c = env.make({ token: padded, logger: logs.logger });
		expect((await c.user.balance()).kobo).toBe(500_000);
		// the token where a phone number goes: invalid_input, message and logs without it
		const e1 = await failure(() => c.data.buy({ network: 'MTN', plan: 2, phone: TOKEN }));
		expect(e1.code).toBe('invalid_input');
		// a server failure (500), retried and logged
		await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'error_before', count: 3 });
		const e2 = await failure(() => c.user.get());
		expectNone(
			[TOKEN, padded.trim()],
			[
				...errorSurfaces(e1),
				...errorSurfaces(e2),
				logs.lines.join('\n'),
				inspect(c, { depth: Infinity, showHidden: true }),
			],
		);
	});

	test('a token with a space inside is refused with what to do, and not shown', async () => {
		const e = await failure(() => env.make({ token: `${TOKEN.slice(0, 20)} ${TOKEN.slice(20)}` }));
		expect(e.code).toBe('invalid_input');
		expect(e.message).toMatch(/token has spaces or line breaks inside it: copy it again/);
		expectNone([TOKEN.slice(0, 20), TOKEN.slice(20)], errorSurfaces(e));
	});

	test('every log line of the client is redacted, whichever part writes it', async () => {
		const logs = captureLogs();
		const c = env.make({ token: TOKEN, logger: logs.logger, reconcile: { waitMs: 0 } });
		// a connection reset after the debit: the purchase layer reconciles and logs what it does
		await env.admin.addFault({ endpoint: 'POST /api/epin/', kind: 'reset_after', count: 1 });
		const outcome = await c.examPins.buy({ exam: 'WAEC', quantity: 1 }).then(
			(r) => inspect(r, { depth: Infinity }),
			(e) => errorSurfaces(e).join('\n'),
		);
		expect(logs.lines.some((l) => /reconcil/i.test(l))).toBe(true);
		expectNone([TOKEN], [outcome, logs.lines.join('\n')]);
	});
});
