/**
 * A slow vendor on demand, for the journeys: an HTTP proxy in front of the real sandbox that parks the
 * requests a hold matches until the test lifts it. The test lifts it only after it has seen what it
 * waits for (a typing action, a "Sending…" edit), so "the sign came before the vendor answered" is true
 * by construction, on a loaded machine as on an idle one: no timing in it.
 */
import {
	createServer,
	request as httpRequest,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface Hold {
	/** Resolves when the first matching request has reached the proxy (and is parked). */
	readonly reached: Promise<void>;
	/** Requests parked so far. */
	readonly parked: number;
	/** True once lifted: parked requests (and later ones) go on to the sandbox. */
	readonly lifted: boolean;
	lift(): void;
}

interface HoldState extends Hold {
	match: (method: string, path: string) => boolean;
	waiters: (() => void)[];
	onReach: () => void;
}

export class HoldProxy {
	private server?: Server;
	private holds: HoldState[] = [];
	baseUrl = '';

	constructor(private readonly target: string) {}

	async start(): Promise<this> {
		this.server = createServer((req, res) => void this.handle(req, res));
		await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
		this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	/** Park every request `METHOD /path…` (path prefix) from now until the hold is lifted. */
	hold(method: string, pathPrefix: string): Hold {
		let onReach!: () => void;
		const reached = new Promise<void>((r) => (onReach = r));
		const h: HoldState = {
			match: (m, p) => m === method && p.startsWith(pathPrefix),
			waiters: [],
			reached,
			onReach,
			parked: 0,
			lifted: false,
			lift: () => {
				h.lifted = true;
				this.holds = this.holds.filter((x) => x !== h);
				for (const w of h.waiters.splice(0)) w();
			},
		};
		this.holds.push(h);
		return h;
	}

	async close(): Promise<void> {
		for (const h of [...this.holds]) h.lift();
		this.server?.closeAllConnections();
		await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const h = this.holds.find((x) => x.match(req.method ?? '', req.url ?? ''));
		if (h) {
			(h as { parked: number }).parked++;
			await new Promise<void>((r) => {
				h.waiters.push(r);
				h.onReach();
			});
		}
		const url = new URL(req.url ?? '/', this.target);
		const out = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
			res.writeHead(up.statusCode ?? 502, up.headers);
			up.pipe(res);
		});
		out.on('error', () => res.destroy());
		res.on('close', () => out.destroy());
		out.end(Buffer.concat(chunks));
	}
}

/** The real bot (`bot/main.ts`) as its own process, with only the environment given (and PATH, HOME). */
export function runBot(env: Record<string, string>) {
	const child = spawn(process.execPath, ['--import', 'tsx', 'bot/main.ts'], {
		cwd: join(__dirname, '..', '..'),
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let out = '';
	child.stdout.on('data', (d) => (out += d));
	child.stderr.on('data', (d) => (out += d));
	const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
	return { child, exited, output: () => out };
}

/** Poll `check` (a read of the sandbox or a database) until it holds: a condition, with a generous bound. */
export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
	for (const end = Date.now() + timeoutMs; !(await check()); ) {
		if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}
