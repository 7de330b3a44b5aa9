/**
 * Quick load check: keep-alive loops over node:http against a running sandbox.
 *   npm run -s sandbox -- --port 8080 > /tmp/sb.env &   # another process, so the two do not share a core
 *   env $(cat /tmp/sb.env) npx tsx tools/sandbox-bench.ts [--seconds 5] [--conns 32]
 * Without VTU_BASE_URL it starts a sandbox in-process (numbers then include the load generator).
 */
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { SandboxAdmin } from '../sandbox/admin-client';
import { startSandbox } from '../sandbox/server';

interface Target {
	base: string;
	token: string;
	adminKey: string;
}

function loop(
	agent: Agent,
	t: Target,
	method: string,
	path: string,
	body: string | undefined,
	until: number,
	counts: { ok: number; bad: number },
): Promise<void> {
	const url = new URL(path, t.base);
	return new Promise((resolve) => {
		const one = () => {
			if (Date.now() >= until) return resolve();
			const req = request(
				url,
				{
					method,
					agent,
					headers: {
						authorization: `Token ${t.token}`,
						...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
					},
				},
				(res) => {
					res.resume();
					res.on('end', () => {
						if (res.statusCode! < 300) counts.ok++;
						else counts.bad++;
						one();
					});
				},
			);
			req.on('error', () => {
				counts.bad++;
				one();
			});
			req.end(body);
		};
		one();
	});
}

async function run(
	t: Target,
	label: string,
	method: string,
	path: string,
	body: string | undefined,
	seconds: number,
	conns: number,
) {
	const agent = new Agent({ keepAlive: true, maxSockets: conns });
	const counts = { ok: 0, bad: 0 };
	const t0 = Date.now();
	const until = t0 + seconds * 1000;
	await Promise.all(Array.from({ length: conns }, () => loop(agent, t, method, path, body, until, counts)));
	const secs = (Date.now() - t0) / 1000;
	agent.destroy();
	console.log(
		`${label.padEnd(22)} ${String(Math.round(counts.ok / secs)).padStart(7)} req/s  (${counts.ok} ok, ${counts.bad} errors, ${conns} conns, ${secs.toFixed(1)} s)`,
	);
}

async function main() {
	const { values } = parseArgs({
		options: { seconds: { type: 'string', default: '5' }, conns: { type: 'string', default: '32' } },
	});
	const seconds = Number(values.seconds);
	const conns = Number(values.conns);
	let t: Target;
	let close = async () => {};
	if (process.env.VTU_BASE_URL) {
		t = { base: process.env.VTU_BASE_URL, token: process.env.VTU_API_TOKEN!, adminKey: process.env.VTU_ADMIN_KEY! };
	} else {
		const sb = await startSandbox();
		t = { base: sb.baseUrl, token: sb.demo.token, adminKey: sb.adminKey };
		close = sb.close;
	}
	const admin = new SandboxAdmin(t.base, t.adminKey);
	await admin.fund('demo', '100000000.00'); // enough for any run
	const data = JSON.stringify({ network: 1, plan: 2, mobile_number: '08031234567', Ported_number: false });
	await run(t, 'GET /api/user/', 'GET', '/api/user/', undefined, seconds, conns);
	await run(t, 'GET /api/get/network/', 'GET', '/api/get/network/', undefined, seconds, conns);
	await run(t, 'POST /api/data/', 'POST', '/api/data/', data, seconds, conns);
	await run(t, 'GET /api/data/ (list)', 'GET', '/api/data/', undefined, seconds, conns);
	await close();
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
