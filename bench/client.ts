/**
 * Client overhead benchmark: `npx tsx bench/client.ts [--sizes 500,2000] [--concurrency 8] [--rounds 5] [--warmup 300]
 *   [--no-gc] [--dialect seed|family] [--only a,b]`.
 *
 * The sandbox runs as a CHILD PROCESS (this same file with --child): a real vendor is a separate
 * machine, and sharing one event loop would bill the sandbox's CPU to whichever side is running,
 * blurring the comparison. The same N profile reads and N data purchases then go through
 *   (a) raw node:http with a keep-alive agent (+ JSON.stringify of the body, JSON.parse of the answer), the
 *       baseline, and
 *   (b) what a developer would write without the client: a plain `fetch` (Node's own, undici) and a plain `axios`
 *       call, the same requests with JSON in and out and a status check, nothing more,
 *   (c) VtuClient with its default node:http transport (every check on: input parsing, zod-validated answers,
 *       the safe-purchase bookkeeping), and with the optional axios transport,
 *   and between them the layers the default one is built from, each adding one to the one before:
 *   layer/transport (createNodeTransport() + JSON.parse) and layer/http (HttpCore.send + parse),
 * in rounds in one run. A "by layer" line says how much CPU each layer adds per operation. Every round
 * runs every variant once, in a rotated order (the sandbox's state grows with every purchase and the
 * machine may be shared, so no variant may always go first or last); the heap is collected before every
 * phase so no variant pays for another's garbage. That full GC also makes V8 drop optimised code whose
 * maps died, so every phase pays for re-optimising node:http and the client (background compile threads,
 * billed as CPU to every variant): `--no-gc` measures the steady state of a long-running process instead,
 * where raw's CPU per operation is far lower and the same added µs give a higher ratio. Each round gives a ratio
 * (variant / raw of the same round) for three measures of the calling process: wall time (throughput,
 * which moves with the machine's load), CPU time (process.cpuUsage: user + system, GC threads included)
 * and main-thread busy time (performance.eventLoopUtilization). CPU time is the load-robust one: the
 * sandbox's work is in another process, and a busy machine delays this process without billing it CPU.
 * Printed are the MEDIAN ratios over the rounds (profile, buy, total; target ≤ 1.15×) and their spread.
 * The sandbox counts what reaches the wire per phase (requests per method + path, new connections), so
 * the baseline and the client are shown to do the same work: one request per operation on kept-alive
 * sockets, plus the client's catalogue refresh (8 GETs per catalogTtlMs) when its cache expires.
 *
 * All of it at each of `--sizes` operations per phase (the per-operation cost should stay flat), then a table of
 * CPU per purchase by size, the RSS of this process, and the last line
 * `client: <c>× fetch CPU per purchase, <w>× raw node:http` (client/node's CPU per purchase over fetch's and raw's,
 * median of the per-round ratios at the largest size).
 *
 * Then what a lost answer costs on a busy account (`--reconciles 12 --busy 20`): a family-dialect sandbox
 * (`?search=` ignored) in another child, 300 records of history, other buyers creating `--busy` records a
 * second on the same account; each purchase's answer is lost (its 500 page after the debit, or before it,
 * alternately) and the requests its reconciliation makes are counted (median, worst), with its answer.
 */
import { spawn } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

const { values } = parseArgs({
	options: {
		child: { type: 'boolean', default: false },
		/** Operations per phase; each size is measured in full (the per-operation cost should stay flat). */
		sizes: { type: 'string', default: '500,2000' },
		concurrency: { type: 'string', default: '8' },
		dialect: { type: 'string', default: 'seed' },
		rounds: { type: 'string', default: '5' },
		warmup: { type: 'string', default: '300' },
		'no-gc': { type: 'boolean', default: false },
		/** Reconciliations measured on a busy account (0: skip that part). */
		reconciles: { type: 'string', default: '12' },
		/** Records per second other buyers create on that account while it reconciles. */
		busy: { type: 'string', default: '20' },
		/** Comma-separated variants to run besides raw (quick probes), e.g. `--only layer/transport,client/node`. */
		only: { type: 'string' },
	},
});

async function child(): Promise<void> {
	// What reaches the wire, counted on the server side (diagnostics channels: no change to the sandbox):
	// requests per method + path (no query) and new TCP connections. "stats" on stdin prints and resets them.
	let requests = new Map<string, number>();
	let connections = 0;
	subscribe('http.server.request.start', (m) => {
		const { method, url } = (m as { request: http.IncomingMessage }).request;
		const q = url!.indexOf('?');
		const key = `${method} ${q === -1 ? url : url!.slice(0, q)}`;
		requests.set(key, (requests.get(key) ?? 0) + 1);
	});
	subscribe('net.server.socket', () => void connections++);
	const { startSandbox } = await import('../sandbox/server');
	const sb = await startSandbox({ port: 0, dialect: values.dialect as 'seed' | 'family' });
	process.stdout.write(JSON.stringify({ baseUrl: sb.baseUrl, adminKey: sb.adminKey, token: sb.demo.token }) + '\n');
	const input = createInterface({ input: process.stdin });
	input.on('line', (l) => {
		if (l.trim() !== 'stats') return;
		process.stdout.write(JSON.stringify({ requests: Object.fromEntries(requests), connections }) + '\n');
		requests = new Map();
		connections = 0;
	});
	input.on('close', () => sb.close().then(() => process.exit(0)));
}

const noop = (): void => undefined;

/** A full GC between phases (so no variant is billed for another's garbage); a no-op if unavailable. */
function gcFunction(): () => void {
	if (typeof global.gc === 'function') return global.gc;
	try {
		v8.setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as unknown;
		if (typeof gc === 'function') return gc as () => void;
	} catch {
		/* not available: run without */
	}
	return noop;
}

interface Phase {
	wallMs: number;
	/** This process's CPU time (user + system, GC and libuv threads included), µs. */
	cpuUs: number;
	/** Main-thread busy time (event loop utilisation × wall), ms. */
	eluMs: number;
}

/** Run `fn` n times, `conc` at a time, measuring wall time, CPU time and event-loop busy time. */
async function pool(n: number, conc: number, fn: (i: number) => Promise<unknown>): Promise<Phase> {
	let next = 0;
	const cpu0 = process.cpuUsage();
	const elu0 = performance.eventLoopUtilization();
	const t0 = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: conc }, async () => {
			while (next < n) await fn(next++);
		}),
	);
	const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
	const cpu = process.cpuUsage(cpu0);
	return { wallMs, cpuUs: cpu.user + cpu.system, eluMs: performance.eventLoopUtilization(elu0).active };
}

const median = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main(): Promise<void> {
	const { VtuClient, createAxiosTransport, createNodeTransport, timerSleep } = await import('../client');
	const { HttpCore } = await import('../client/http');
	const { SandboxAdmin } = await import('../sandbox/admin-client');
	const SIZES = values.sizes.split(',').map(Number);
	const C = Number(values.concurrency);
	const ROUNDS = Number(values.rounds);
	const WARM = Number(values.warmup);

	const proc = spawn(
		process.execPath,
		['--import', 'tsx', __filename, '--child', '--dialect', String(values.dialect)],
		{ stdio: ['pipe', 'pipe', 'inherit'] },
	);
	const waiting: ((l: string) => void)[] = [];
	createInterface({ input: proc.stdout! }).on('line', (l) => waiting.shift()?.(l));
	const exited = new Promise<never>((_, reject) =>
		proc.once('exit', (c) => reject(new Error(`sandbox child exited ${c}`))),
	);
	exited.catch(() => undefined);
	const nextLine = () => Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), exited]);
	const { baseUrl, adminKey, token } = JSON.parse(await nextLine()) as {
		baseUrl: string;
		adminKey: string;
		token: string;
	};
	/** Requests (per method + path) and new connections the sandbox saw since the last call. */
	const wire = async () => {
		proc.stdin!.write('stats\n');
		return JSON.parse(await nextLine()) as { requests: Record<string, number>; connections: number };
	};
	const admin = new SandboxAdmin(baseUrl, adminKey);

	// the baseline's keep-alive policy is the node transport's (client/transport-node.ts)
	const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
	const u = new URL(baseUrl);
	const raw = (method: 'GET' | 'POST', path: string, body?: string) =>
		new Promise<unknown>((resolve, reject) => {
			const headers: Record<string, string> = { Authorization: `Token ${token}`, Accept: 'application/json' };
			if (body) {
				headers['Content-Type'] = 'application/json';
				headers['Content-Length'] = String(Buffer.byteLength(body));
			}
			const r = http.request({ hostname: u.hostname, port: u.port, path, method, headers, agent }, (res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () => {
					const j = JSON.parse(Buffer.concat(chunks).toString('utf8'));
					if ((res.statusCode ?? 0) >= 300) reject(new Error(`HTTP ${res.statusCode}`));
					else resolve(j);
				});
			});
			r.on('error', reject);
			r.end(body);
		});

	// serialised per request, as any caller (and the client) must do for a purchase
	const buyBody = () => JSON.stringify({ network: 1, plan: 1, mobile_number: '08031234567', Ported_number: false });
	// The layers between raw and the client, each adding one to the one before (same request, same body):
	// the transport alone, then HttpCore (retry loop, Date header, status classification), then VtuClient
	// (validation against the catalogue, the safe-purchase mechanism, zod-checked record parsing, claims).
	const transport = createNodeTransport();
	const auth = { Authorization: `Token ${token}`, Accept: 'application/json' };
	const viaTransport = async (method: 'GET' | 'POST', path: string, body?: string) => {
		const headers = body === undefined ? auth : { ...auth, 'Content-Type': 'application/json' };
		const res = await transport({ method, url: baseUrl + path, headers, body, timeoutMs: 30_000 });
		const j = JSON.parse(res.body) as unknown;
		if (res.status >= 300) throw new Error(`HTTP ${res.status}`);
		return j;
	};
	const core = new HttpCore({
		baseUrl,
		token,
		transport: createNodeTransport(),
		sleep: timerSleep,
		now: Date.now,
		timeoutMs: 30_000,
	});
	const viaCore = async (method: 'GET' | 'POST', path: string, json?: string) =>
		core.parse(method, path, await core.send(method, path, { json }));
	const byFetch = async (method: 'GET' | 'POST', path: string, body?: string) => {
		const headers: Record<string, string> = { Authorization: `Token ${token}`, Accept: 'application/json' };
		if (body) headers['Content-Type'] = 'application/json';
		const res = await fetch(baseUrl + path, { method, headers, body });
		const j = (await res.json()) as unknown;
		if (!res.ok) throw new Error(`HTTP ${res.status}`);
		return j;
	};
	const { default: axios } = await import('axios');
	const byAxios = async (method: 'GET' | 'POST', path: string, body?: string) => {
		const headers = { Authorization: `Token ${token}`, Accept: 'application/json' };
		const res =
			method === 'GET'
				? await axios.get(baseUrl + path, { headers })
				: await axios.post(baseUrl + path, body, { headers: { ...headers, 'Content-Type': 'application/json' } });
		return res.data as unknown;
	};
	const allVariants = {
		raw: {
			profile: () => raw('GET', '/api/user/'),
			buy: () => raw('POST', '/api/data/', buyBody()),
		},
		'layer/transport': {
			profile: () => viaTransport('GET', '/api/user/'),
			buy: () => viaTransport('POST', '/api/data/', buyBody()),
		},
		'layer/http': { profile: () => viaCore('GET', '/api/user/'), buy: () => viaCore('POST', '/api/data/', buyBody()) },
		// what a developer would write without the client: fetch (Node's own), then axios, no checks beyond the status
		fetch: {
			profile: () => byFetch('GET', '/api/user/'),
			buy: () => byFetch('POST', '/api/data/', buyBody()),
		},
		axios: {
			profile: () => byAxios('GET', '/api/user/'),
			buy: () => byAxios('POST', '/api/data/', buyBody()),
		},
		'client/axios': (() => {
			const c = new VtuClient({ baseUrl, token, transport: createAxiosTransport() });
			return { profile: () => c.user.get(), buy: () => c.data.buy({ network: 'MTN', plan: 1, phone: '08031234567' }) };
		})(),
		'client/node': (() => {
			const c = new VtuClient({ baseUrl, token, transport: createNodeTransport() });
			return { profile: () => c.user.get(), buy: () => c.data.buy({ network: 'MTN', plan: 1, phone: '08031234567' }) };
		})(),
		// the opt-in ownership proof: a fresh customer_ref in every purchase body (no extra request)
		'client/node+ref': (() => {
			const c = new VtuClient({ baseUrl, token, transport: createNodeTransport(), customerRef: true });
			return { profile: () => c.user.get(), buy: () => c.data.buy({ network: 'MTN', plan: 1, phone: '08031234567' }) };
		})(),
	};
	type Name = keyof typeof allVariants;
	const only = values.only?.split(',').map((x) => x.trim());
	for (const o of only ?? [])
		if (!(o in allVariants))
			throw new Error(`--only: unknown variant ${o}; known: ${Object.keys(allVariants).join(', ')}`);
	const variants = Object.fromEntries(
		Object.entries(allVariants).filter(([k]) => !only || k === 'raw' || only.includes(k)),
	) as Partial<typeof allVariants> & Pick<typeof allVariants, 'raw'>;
	// enough money for every purchase of every round, warm-up included, and variant
	const all = SIZES.reduce((a, b) => a + b, 0);
	await admin.fund('demo', String((all * ROUNDS + WARM) * Object.keys(variants).length * 130 + 1000));
	type Op = 'profile' | 'buy';
	const names = Object.keys(variants) as Name[];
	const collect = values['no-gc'] ? noop : gcFunction();
	// warm-up (JIT, sockets, catalogue cache)
	for (const v of Object.values(variants)) {
		await pool(WARM, C, () => v.profile());
		await pool(WARM, C, () => v.buy());
	}
	await wire(); // the warm-up's requests are not counted
	/** Every variant in rotated rounds at one size, the tables; CPU µs per purchase of each variant. */
	const measureAt = async (N: number) => {
		const ms: Record<string, Record<Op, Phase[]>> = {};
		const onWire: Record<string, Record<Op, { requests: Map<string, number>; connections: number }>> = {};
		for (const name of names) {
			ms[name] = { profile: [], buy: [] };
			onWire[name] = { profile: { requests: new Map(), connections: 0 }, buy: { requests: new Map(), connections: 0 } };
		}
		for (let round = 0; round < ROUNDS; round++) {
			for (const name of names.map((_, i) => names[(i + round) % names.length])) {
				const v = variants[name]!;
				for (const op of ['profile', 'buy'] as const) {
					collect();
					ms[name][op].push(await pool(N, C, () => v[op]()));
					const w = await wire();
					const acc = onWire[name][op];
					for (const [k, n] of Object.entries(w.requests)) acc.requests.set(k, (acc.requests.get(k) ?? 0) + n);
					acc.connections += w.connections;
				}
			}
		}
		const base = ms.raw;
		type Metric = 'wallMs' | 'cpuUs' | 'eluMs';
		/** Per-round ratios of a variant against raw in the same round, for one measure. */
		const ratios = (name: string, k: Metric) => ({
			profile: ms[name].profile.map((p, i) => p[k] / base.profile[i][k]),
			buy: ms[name].buy.map((p, i) => p[k] / base.buy[i][k]),
			total: ms[name].profile.map((p, i) => (p[k] + ms[name].buy[i][k]) / (base.profile[i][k] + base.buy[i][k])),
		});
		const rate = (ps: Phase[]) => Math.round(N / (median(ps.map((p) => p.wallMs)) / 1000));
		const perOp = (ps: Phase[]) => Math.round(median(ps.map((p) => p.cpuUs)) / N);
		const x = (r: number) => `${r.toFixed(3)}×`;
		const m = (name: string, k: Metric, part: 'profile' | 'buy' | 'total') => median(ratios(name, k)[part]);
		console.log(
			`\nbench/client: N=${N} × ${ROUNDS} rounds, concurrency ${C}, dialect ${values.dialect}, sandbox in a child ` +
				`process, order rotated per round${collect === noop ? '' : ', GC before each phase'}\n`,
		);
		/** One table row: two per-operation figures, then the median ratios of `k` over the rounds and a spread. */
		const row = (name: string, k: Metric, profile: number, buy: number, spread: 'buy' | 'total', extra = '') => {
			const r = ratios(name, k);
			console.log(
				`${name.padEnd(16)} ${String(profile).padStart(13)} ${String(buy).padStart(11)}` +
					`${x(median(r.profile)).padStart(23)} ${x(median(r.buy)).padStart(10)} ${x(median(r.total)).padStart(10)}   ` +
					`(${x(Math.min(...r[spread]))}–${x(Math.max(...r[spread]))})${extra}`,
			);
		};
		console.log("WALL TIME (throughput; moves with the machine's load)");
		console.log(
			'variant          profile req/s   buy req/s   median ratio: profile        buy      total   (total min–max over ' +
				'rounds)',
		);
		for (const name of names) row(name, 'wallMs', rate(ms[name].profile), rate(ms[name].buy), 'total');
		console.log(
			'\nCPU TIME of the calling process (user + system, per operation; robust to load: the sandbox runs in its own ' +
				'process)',
		);
		console.log(
			'variant          profile µs/op   buy µs/op   median ratio: profile        buy      total   (buy min–max)     ' +
				'main-thread busy ratio: buy   total',
		);
		for (const name of names) {
			row(
				name,
				'cpuUs',
				perOp(ms[name].profile),
				perOp(ms[name].buy),
				'buy',
				`${x(m(name, 'eluMs', 'buy')).padStart(29)} ${x(m(name, 'eluMs', 'total')).padStart(7)}`,
			);
		}
		console.log(
			`\nON THE WIRE (counted by the sandbox over the ${ROUNDS} measured rounds): requests per operation, new connections`,
		);
		for (const name of names) {
			const parts = (['profile', 'buy'] as const).map((op) => {
				const w = onWire[name][op];
				const reqs = [...w.requests]
					.sort((a, b) => b[1] - a[1])
					.map(([k, n]) => `${(n / (N * ROUNDS)).toFixed(n % (N * ROUNDS) ? 4 : 0)} ${k}`);
				return `${op}: ${reqs.join(' + ')}; ${w.connections} new connection(s)`;
			});
			console.log(`${name.padEnd(16)} ${parts.join(' | ')}`);
		}
		const has = (name: string) => name in variants;
		const rawTotal = median(base.profile.map((p, i) => p.wallMs + base.buy[i].wallMs));
		console.log(
			`\nsandbox throughput (raw phase): ${Math.round((2 * N) / (rawTotal / 1000))} req/s overall; profile ` +
				`${rate(base.profile)} req/s, purchases ${rate(base.buy)} req/s`,
		);
		// Where the client's CPU goes: each layer's median per-round CPU per operation, and what it adds to the layer below.
		const layers = ['raw', 'layer/transport', 'layer/http', 'client/node'].filter(has);
		for (const op of ['profile', 'buy'] as const) {
			const steps = layers.map((name, i) => {
				const own = `${name} ${perOp(ms[name][op])} µs`;
				if (i === 0) return own;
				const below = ms[layers[i - 1]][op];
				const added = median(ms[name][op].map((p, r) => (p.cpuUs - below[r].cpuUs) / N));
				return `${own} (${added >= 0 ? '+' : ''}${added.toFixed(0)}, ${x(m(name, 'cpuUs', op))})`;
			});
			console.log(
				`${op} CPU per operation by layer (median; added to the layer before, ratio to raw): ${steps.join(' → ')}`,
			);
		}
		if (has('client/node')) {
			const perRound = ratios('client/node', 'wallMs')
				.total.map((r) => r.toFixed(3))
				.join(' ');
			console.log(`client/node wall total ratio per round (run order): ${perRound}`);
			console.log(
				`client overhead (median of ${ROUNDS} rounds), default transport (node:http): wall ` +
					`${x(m('client/node', 'wallMs', 'total'))}, CPU ${x(m('client/node', 'cpuUs', 'total'))} (target ≤ 1.15×)` +
					(has('client/axios')
						? `; axios transport: wall ${x(m('client/axios', 'wallMs', 'total'))}, CPU ` +
							`${x(m('client/axios', 'cpuUs', 'total'))}`
						: ''),
			);
			const perBuy = (name: string) =>
				[...onWire[name].buy.requests.values()].reduce((a, b) => a + b, 0) / (N * ROUNDS);
			const ref = has('client/node+ref');
			console.log(
				`purchase overhead (median of ${ROUNDS} rounds), default transport: wall ` +
					`${x(m('client/node', 'wallMs', 'buy'))}, CPU ${x(m('client/node', 'cpuUs', 'buy'))} (target ≤ 1.15×)` +
					(ref
						? `; with customerRef: wall ${x(m('client/node+ref', 'wallMs', 'buy'))}, CPU ` +
							`${x(m('client/node+ref', 'cpuUs', 'buy'))}`
						: '') +
					`. Requests per purchase: raw ${perBuy('raw').toFixed(4)}, client ` +
					`${perBuy('client/node').toFixed(4)}${ref ? `, with customerRef ${perBuy('client/node+ref').toFixed(4)}` : ''}.`,
			);
		}
		const buyUs = Object.fromEntries(names.map((name) => [name, median(ms[name].buy.map((p) => p.cpuUs)) / N]));
		const ratioTo = (base: string) =>
			has(base) && has('client/node')
				? median(ms['client/node'].buy.map((p, i) => p.cpuUs / ms[base].buy[i].cpuUs))
				: NaN;
		return { N, buyUs, vsFetch: ratioTo('fetch'), vsRaw: ratioTo('raw') };
	};
	const sized = [];
	for (const N of SIZES) sized.push(await measureAt(N));
	const rss = process.memoryUsage.rss();
	agent.destroy();
	proc.stdin!.end();
	await exited.catch(() => undefined);
	if (Number(values.reconciles) > 0) await reconcileCost(Number(values.reconciles), Number(values.busy));
	console.log('\nCPU per PURCHASE of the calling process by size (median over rounds, µs; the cost should stay flat)');
	const cols = Object.keys(sized[0].buyUs);
	console.log(`${'size'.padEnd(7)}${cols.map((c) => c.padStart(17)).join('')}   client/fetch  client/raw`);
	for (const r of sized)
		console.log(
			`${String(r.N).padEnd(7)}${cols.map((c) => r.buyUs[c].toFixed(0).padStart(17)).join('')}` +
				`${(r.vsFetch.toFixed(2) + '×').padStart(15)}${(r.vsRaw.toFixed(2) + '×').padStart(12)}`,
		);
	console.log(`RSS of this (the calling) process after the largest size: ${(rss / 2 ** 20).toFixed(0)} MB`);
	const last = sized[sized.length - 1];
	console.log(`client: ${last.vsFetch.toFixed(2)}× fetch CPU per purchase, ${last.vsRaw.toFixed(2)}× raw node:http`);
}

/** A sandbox child of the given dialect: its base URL, admin key and demo token; `close()` ends it. */
async function sandboxChild(dialect: string) {
	const proc = spawn(process.execPath, ['--import', 'tsx', __filename, '--child', '--dialect', dialect], {
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	const first = await new Promise<string>((resolve) => createInterface({ input: proc.stdout! }).once('line', resolve));
	const info = JSON.parse(first) as { baseUrl: string; adminKey: string; token: string };
	return {
		...info,
		close: () =>
			new Promise<void>((r) => {
				proc.once('exit', () => r());
				proc.stdin!.end();
			}),
	};
}

/** Requests one reconciliation makes on a busy family account (see the header). */
async function reconcileCost(trials: number, busyPerSecond: number): Promise<void> {
	const { AccountRegistry, VtuClient, createNodeTransport } = await import('../client');
	const { SandboxAdmin } = await import('../sandbox/admin-client');
	const sb = await sandboxChild('family');
	const admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
	await admin.setConfig({ request_faults: true });
	const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
	const u = new URL(sb.baseUrl);
	let other = 0;
	// another buyer's data purchase (other recipients: never a candidate)
	const otherBuy = () =>
		new Promise<void>((resolve) => {
			const body = JSON.stringify({
				network: 1,
				plan: 1,
				mobile_number: `0803${String(4_000_000 + (other++ % 999_999))}`,
				Ported_number: false,
			});
			const r = http.request(
				{
					hostname: u.hostname,
					port: u.port,
					path: '/api/data/',
					method: 'POST',
					agent,
					headers: {
						Authorization: `Token ${sb.token}`,
						'Content-Type': 'application/json',
						'Content-Length': String(Buffer.byteLength(body)),
					},
				},
				(res) => res.resume().on('end', resolve),
			);
			r.on('error', () => resolve());
			r.end(body);
		});
	for (let i = 0; i < 300; i++) await otherBuy();
	let busy = true;
	const background = (async () => {
		for (let t0 = Date.now(), k = 0; busy; k++) {
			void otherBuy();
			const due = t0 + ((k + 1) * 1000) / busyPerSecond;
			await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
		}
	})();
	let fault = '';
	let gets = 0;
	const inner = createNodeTransport();
	const client = new VtuClient({
		baseUrl: sb.baseUrl,
		token: sb.token,
		accounts: new AccountRegistry(),
		timeoutMs: 10_000,
		transport: (req) => {
			if (req.method === 'GET') gets++;
			return inner(
				req.method === 'POST' && fault ? { ...req, headers: { ...req.headers, 'x-sandbox-fault': fault } } : req,
			);
		},
		// a vendor bound of 2 s (the sandbox's), and a wait long enough to reach it: the answers can be proofs
		reconcile: { maxProcessingMs: 2_000, waitMs: 3_000, pollMs: 500 },
	});
	// catalogue, clock
	for (let i = 0; i < 3; i++) await client.data.buy({ network: 'MTN', plan: 1, phone: '08031234567' });
	const costs: number[] = [];
	const answers = new Map<string, number>();
	for (let i = 0; i < trials; i++) {
		fault = i % 2 ? 'error_before' : 'html_after';
		gets = 0;
		// a recipient of its own per trial: an earlier trial's unresolved record would rightly be a candidate
		const key = await client.data.buy({ network: 'MTN', plan: 1, phone: `0803987${String(6000 + i)}` }).then(
			(r) => `${fault} → ${r.path}`,
			(e) => `${fault} → ${(e as { code: string }).code}`,
		);
		answers.set(key, (answers.get(key) ?? 0) + 1);
		costs.push(gets);
	}
	fault = '';
	busy = false;
	await background;
	agent.destroy();
	await sb.close();
	const sorted = [...costs].sort((a, b) => a - b);
	console.log(
		'\nRECONCILIATION on a busy account (family dialect, ?search= ignored; 300 records of history, ' +
			`${busyPerSecond} records/s by other buyers; waitMs 3 s, pollMs 0.5 s, maxProcessingMs 2 s)`,
	);
	console.log(
		`requests per reconciliation over ${trials}: median ${median(costs)}, worst ${sorted[sorted.length - 1]}, best ` +
			`${sorted[0]} (list pages read; the lost POST itself not counted)`,
	);
	console.log(`answers: ${[...answers].map(([k, n]) => `${n} × ${k}`).join(', ')}`);
}

(values.child ? child() : main()).catch((e) => {
	console.error(e);
	process.exit(1);
});
