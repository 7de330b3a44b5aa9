/**
 * The sandbox against a trivial server: `npm run bench:sandbox -- [--sizes 2000,8000] [--conns 32] [--rounds 3]`.
 *
 * Two servers, each in a CHILD process (so the load generator, this process, is never billed to them):
 *   - the sandbox (sandbox/server.ts, seed dialect, logging off: as every bench and test runs it);
 *   - a trivial node:http server answering the SAME JSON bytes the sandbox answered for each endpoint (captured
 *     from the sandbox first), after the least any real server does: read the body, JSON.parse it, look at the
 *     Authorization header.
 * For each size (requests per endpoint), in rounds that alternate which server goes first, the same keep-alive
 * loops (`--conns` connections) send GET /api/user/, GET /api/get/network/ and POST /api/data/ to each. Measured:
 * requests per second (moves with the machine's load) and the server child's CPU time per request
 * (process.cpuUsage: user + system; the load-robust figure). The ratio is the trivial server's CPU per request over
 * the sandbox's (1× = as cheap as a server that does nothing), medians over the rounds; the last line gives it for
 * the three endpoints together at the largest size. The memory (RSS) of each server is read at the end.
 *
 * Against a sandbox already running elsewhere: `env $(cat /tmp/sb.env) npx tsx tools/sandbox-bench.ts --external`
 * (req/s only: its CPU is not ours to read).
 */
import { spawn } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { SandboxAdmin } from '../sandbox/admin-client';

const { values } = parseArgs({
	options: {
		child: { type: 'string' },
		sizes: { type: 'string', default: '2000,8000' },
		conns: { type: 'string', default: '32' },
		rounds: { type: 'string', default: '3' },
		external: { type: 'boolean', default: false },
		/** Also a trivial Fastify server (what the framework alone costs). */
		fastify: { type: 'boolean', default: false },
	},
});

const DATA = JSON.stringify({ network: 1, plan: 2, mobile_number: '08031234567', Ported_number: false });
const ENDPOINTS = [
	{ label: 'GET /api/user/', method: 'GET', path: '/api/user/' },
	{ label: 'GET /api/get/network/', method: 'GET', path: '/api/get/network/' },
	{ label: 'POST /api/data/', method: 'POST', path: '/api/data/', body: DATA },
] as const;
type Endpoint = (typeof ENDPOINTS)[number];
type Usage = { cpuUs: number; rss: number };
const usage = (): Usage => {
	const c = process.cpuUsage();
	return { cpuUs: c.user + c.system, rss: process.memoryUsage.rss() };
};

// ---------------------------------------------------------------- children

/** Answer `usage` lines on stdin with this process's CPU time and RSS; exit when stdin closes. */
function serveUsage(close: () => Promise<void>): void {
	const lines = createInterface({ input: process.stdin });
	lines.on('line', () => process.stdout.write(JSON.stringify(usage()) + '\n'));
	lines.on('close', () => void close().then(() => process.exit(0)));
}

async function sandboxChild(): Promise<void> {
	const { startSandbox } = await import('../sandbox/server');
	const sb = await startSandbox({ port: 0 });
	process.stdout.write(JSON.stringify({ base: sb.baseUrl, token: sb.demo.token, adminKey: sb.adminKey }) + '\n');
	serveUsage(() => sb.close());
}

/** The trivial server: the bodies per "METHOD path" come as the first stdin line. */
async function trivialChild(): Promise<void> {
	const lines = createInterface({ input: process.stdin });
	const first = await new Promise<string>((resolve) => lines.once('line', resolve));
	lines.close();
	const bodies = new Map(Object.entries(JSON.parse(first) as Record<string, string>));
	const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			if (chunks.length) JSON.parse(Buffer.concat(chunks).toString('utf8'));
			const body = req.headers.authorization ? bodies.get(`${req.method} ${req.url}`) : undefined;
			res.writeHead(body === undefined ? 404 : req.method === 'POST' ? 201 : 200, {
				'content-type': 'application/json',
			});
			res.end(body ?? '{}');
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const port = (server.address() as AddressInfo).port;
	process.stdout.write(JSON.stringify({ base: `http://127.0.0.1:${port}`, token: 'x' }) + '\n');
	serveUsage(
		() =>
			new Promise((r) => {
				server.closeAllConnections();
				server.close(() => r());
			}),
	);
}

/** The same, on Fastify (what the sandbox is built on): what the framework alone costs. */
async function fastifyChild(): Promise<void> {
	const lines = createInterface({ input: process.stdin });
	const first = await new Promise<string>((resolve) => lines.once('line', resolve));
	lines.close();
	const { default: Fastify } = await import('fastify');
	const app = Fastify({ logger: false, keepAliveTimeout: 65_000 });
	for (const [key, body] of Object.entries(JSON.parse(first) as Record<string, string>)) {
		const [method, url] = key.split(' ');
		app.route({
			method: method as 'GET' | 'POST',
			url,
			handler: (req, reply) => {
				if (!req.headers.authorization) return reply.code(401).send({});
				return reply
					.code(method === 'POST' ? 201 : 200)
					.type('application/json')
					.send(body);
			},
		});
	}
	await app.listen({ port: 0, host: '127.0.0.1' });
	const port = (app.server.address() as AddressInfo).port;
	process.stdout.write(JSON.stringify({ base: `http://127.0.0.1:${port}`, token: 'x' }) + '\n');
	serveUsage(() => app.close());
}

// ---------------------------------------------------------------- load

type Target = { base: string; token: string; adminKey?: string };
type Server = Target & { name: string; usage(): Promise<Usage>; send(line: string): void; close(): void };

async function startChild(kind: 'sandbox' | 'trivial' | 'fastify', firstLine?: string): Promise<Server> {
	const proc = spawn(process.execPath, [...process.execArgv, __filename, '--child', kind], {
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	const waiting: ((l: string) => void)[] = [];
	createInterface({ input: proc.stdout! }).on('line', (l) => waiting.shift()?.(l));
	const next = () => new Promise<string>((resolve) => waiting.push(resolve));
	if (firstLine !== undefined) proc.stdin!.write(firstLine + '\n');
	const info = JSON.parse(await next()) as Target;
	return {
		...info,
		name: kind,
		usage: async () => {
			const line = next();
			proc.stdin!.write('usage\n');
			return JSON.parse(await line) as Usage;
		},
		send: (l) => proc.stdin!.write(l + '\n'),
		close: () => proc.stdin!.end(),
	};
}

/** One request; resolves with the status and body. */
function once(agent: Agent, t: Target, e: Endpoint): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const body = 'body' in e ? e.body : undefined;
		const headers: Record<string, string | number> = { authorization: `Token ${t.token}` };
		if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
		const req = request(new URL(e.path, t.base), { method: e.method, agent, headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** n requests of one endpoint over `conns` keep-alive loops; wall time and the answers that were not 2xx. */
async function load(t: Target, e: Endpoint, n: number, conns: number) {
	const agent = new Agent({ keepAlive: true, maxSockets: conns });
	let sent = 0;
	let bad = 0;
	const t0 = performance.now();
	await Promise.all(
		Array.from({ length: conns }, async () => {
			while (sent < n) {
				sent++;
				const r = await once(agent, t, e).catch(() => ({ status: 0 }));
				if (r.status < 200 || r.status >= 300) bad++;
			}
		}),
	);
	const ms = performance.now() - t0;
	agent.destroy();
	return { ms, bad };
}

// ---------------------------------------------------------------- report

const median = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
type Cell = { rate: number[]; cpuUs: number[]; bad: number };

/** Every endpoint on one server at one size: req/s and server CPU µs per request into `cells`. */
async function measure(s: Server, n: number, conns: number, cells: Map<string, Cell>) {
	for (const e of ENDPOINTS) {
		const key = `${s.name}|${n}|${e.label}`;
		const cell = cells.get(key) ?? { rate: [], cpuUs: [], bad: 0 };
		cells.set(key, cell);
		const u0 = await s.usage();
		const { ms, bad } = await load(s, e, n, conns);
		const u1 = await s.usage();
		cell.rate.push(n / (ms / 1000));
		cell.cpuUs.push((u1.cpuUs - u0.cpuUs) / n);
		cell.bad += bad;
	}
}

/** Per size and endpoint: req/s and CPU µs per request of each server, and each one's CPU ratio to the trivial one. */
function report(cells: Map<string, Cell>, sizes: number[], names: string[], rss: Record<string, number>): number {
	const get = (s: string, n: number, e: string) => cells.get(`${s}|${n}|${e}`)!;
	const pad = (x: string | number, w: number) => String(x).padStart(w);
	const others = names.filter((x) => x !== 'trivial');
	console.log(
		`${'size'.padEnd(7)}${'endpoint'.padEnd(24)}${names.map((x) => pad(`${x} req/s`, 15)).join('')}` +
			`${names.map((x) => pad(`${x} µs`, 12)).join('')}${others.map((x) => pad(`${x} CPU×`, 14)).join('')}  errors`,
	);
	let ratio = 0;
	for (const n of sizes) {
		const all: Record<string, number> = Object.fromEntries(names.map((x) => [x, 0]));
		for (const e of ENDPOINTS) {
			const cpu = Object.fromEntries(names.map((x) => [x, median(get(x, n, e.label).cpuUs)]));
			for (const x of names) all[x] += cpu[x];
			console.log(
				`${String(n).padEnd(7)}${e.label.padEnd(24)}` +
					names.map((x) => pad(Math.round(median(get(x, n, e.label).rate)), 15)).join('') +
					names.map((x) => pad(cpu[x].toFixed(1), 12)).join('') +
					others.map((x) => pad((cpu.trivial / cpu[x]).toFixed(2) + '×', 14)).join('') +
					`  ${names.reduce((k, x) => k + get(x, n, e.label).bad, 0)}`,
			);
		}
		ratio = all.trivial / all.sandbox;
		console.log(
			`${String(n).padEnd(7)}${'all three'.padEnd(24)}${pad('', 15 * names.length)}` +
				names.map((x) => pad(all[x].toFixed(1), 12)).join('') +
				others.map((x) => pad((all.trivial / all[x]).toFixed(2) + '×', 14)).join(''),
		);
	}
	console.log(`RSS at the end: ${names.map((x) => `${x} ${(rss[x] / 2 ** 20).toFixed(0)} MB`).join(', ')}`);
	return ratio;
}

async function capture(sb: Server): Promise<Record<string, string>> {
	const agent = new Agent({ keepAlive: true });
	const out: Record<string, string> = {};
	for (const e of ENDPOINTS) {
		const r = await once(agent, sb, e);
		if (r.status >= 300) throw new Error(`${e.label}: sandbox answered ${r.status}`);
		out[`${e.method} ${e.path}`] = r.body;
	}
	agent.destroy();
	return out;
}

async function external(sizes: number[], conns: number): Promise<void> {
	const t = { base: process.env.VTU_BASE_URL!, token: process.env.VTU_API_TOKEN! };
	await new SandboxAdmin(t.base, process.env.VTU_ADMIN_KEY!).fund('demo', '100000000.00');
	for (const e of ENDPOINTS) {
		const { ms, bad } = await load(t, e, sizes.at(-1)!, conns);
		console.log(`${e.label.padEnd(24)} ${Math.round(sizes.at(-1)! / (ms / 1000))} req/s, ${bad} errors`);
	}
}

async function main() {
	const sizes = values.sizes.split(',').map(Number);
	const conns = Number(values.conns);
	const rounds = Number(values.rounds);
	if (values.external) return external(sizes, conns);
	const sb = await startChild('sandbox');
	await new SandboxAdmin(sb.base, sb.adminKey!).fund('demo', '100000000.00'); // enough for any run
	const bodies = JSON.stringify(await capture(sb));
	const servers = [sb, await startChild('trivial', bodies)];
	if (values.fastify) servers.push(await startChild('fastify', bodies));
	// warm-up (JIT, sockets), not measured
	for (const s of servers) for (const e of ENDPOINTS) await load(s, e, 1000, conns);
	const cells = new Map<string, Cell>();
	for (const n of sizes)
		for (let r = 0; r < rounds; r++)
			for (let i = 0; i < servers.length; i++) await measure(servers[(i + r) % servers.length], n, conns, cells);
	const rss: Record<string, number> = {};
	for (const s of servers) rss[s.name] = (await s.usage()).rss;
	for (const s of servers) s.close();
	console.log(
		`\nbench:sandbox: ${ENDPOINTS.length} endpoints × sizes ${sizes.join(', ')} requests × ${rounds} rounds, ` +
			`${conns} keep-alive connections; servers in child processes; medians over rounds; ` +
			`CPU× = the trivial server's CPU per request / this one's\n`,
	);
	const ratio = report(
		cells,
		sizes,
		servers.map((x) => x.name),
		rss,
	);
	console.log(`sandbox: ${ratio.toFixed(2)}× a trivial server`);
}

if (values.child === 'sandbox') void sandboxChild();
else if (values.child === 'trivial') void trivialChild();
else if (values.child === 'fastify') void fastifyChild();
else
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
