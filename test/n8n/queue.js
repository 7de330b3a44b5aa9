'use strict';
/**
 * n8n in queue mode for the real-n8n tests and bench/n8n.js --queue: a private Postgres cluster and a
 * private Redis (OS packages, started here on free loopback ports in a temp dir, removed by stop()),
 * one main (`n8n start`: editor, REST, triggers) and N workers (`n8n worker`), all with the package as a
 * community package (harness.js).
 *
 *   const q = await startQueueCluster({ workers: 2 });
 *   q.main            // an N8nInstance (REST as in harness.js); executions run on the workers
 *   q.processes()     // [{ role, pid }] of every n8n process
 *   await q.stop();
 *
 * N8N_E2E_LOG_DIR=dir keeps every n8n process's output in dir/n8n-<role>.log.
 * Binaries: PG_BIN (a directory with initdb and postgres), else the newest /usr/lib/postgresql/<v>/bin,
 * else PATH; redis-server from PATH. Postgres refuses to run as root: as root it runs as the `postgres`
 * OS user (Debian's package creates it).
 */
const { spawn, execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { startN8n, freePort, REPO_ROOT } = require('./harness');

function pgBin(name) {
	const dirs = [];
	if (process.env.PG_BIN) dirs.push(process.env.PG_BIN);
	const root = '/usr/lib/postgresql';
	if (fs.existsSync(root)) {
		for (const v of fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))) dirs.push(path.join(root, v, 'bin'));
	}
	for (const d of dirs) if (fs.existsSync(path.join(d, name))) return path.join(d, name);
	return name;
}

/** Spawns a server and resolves once a line of its output matches `ready`. */
function startServer(cmd, args, { ready, timeoutMs = 60000, ...spawnOpts }) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...spawnOpts });
		let out = '';
		const t = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`${path.basename(cmd)} not ready after ${timeoutMs} ms:\n${out.slice(-2000)}`));
		}, timeoutMs);
		const onData = (b) => {
			out += b;
			if (ready.test(out)) {
				clearTimeout(t);
				resolve(child);
			}
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		child.once('error', (e) => {
			clearTimeout(t);
			reject(e);
		});
		child.once('exit', (code, sig) => {
			clearTimeout(t);
			reject(new Error(`${path.basename(cmd)} exited (${code ?? sig}) during start-up:\n${out.slice(-2000)}`));
		});
	});
}

async function stopChild(child) {
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((r) => child.once('exit', r));
	child.kill('SIGTERM');
	const t = setTimeout(() => child.kill('SIGKILL'), 15000);
	await exited;
	clearTimeout(t);
}

/** A throw-away Postgres cluster: { host, port, user, database, child, stop() }. */
async function startPostgres() {
	const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'n8n-queue-pg-'));
	const asUser = {};
	if (process.getuid && process.getuid() === 0) {
		const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
		const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
		fs.chownSync(dir, uid, gid);
		Object.assign(asUser, { uid, gid });
	}
	const data = path.join(dir, 'data');
	execFileSync(pgBin('initdb'), ['-D', data, '-U', 'n8n', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
		stdio: ['ignore', 'ignore', 'pipe'],
		...asUser,
		env: { ...process.env, LC_ALL: 'C' },
	});
	const port = await freePort();
	// durability off: a test database that lives for one run
	const child = await startServer(
		pgBin('postgres'),
		[
			'-D',
			data,
			'-p',
			String(port),
			'-h',
			'127.0.0.1',
			'-k',
			dir,
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=200',
		],
		{ ready: /ready to accept connections/, ...asUser, env: { ...process.env, LC_ALL: 'C' } },
	);
	return {
		host: '127.0.0.1',
		port,
		user: 'n8n',
		database: 'postgres',
		child,
		async stop() {
			await stopChild(child);
			await fsp.rm(dir, { recursive: true, force: true }).catch(() => {});
		},
	};
}

/** A throw-away Redis: { host, port, child, stop() }. */
async function startRedis() {
	const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'n8n-queue-redis-'));
	const port = await freePort();
	const child = await startServer(
		'redis-server',
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
		{ ready: /Ready to accept connections/ },
	);
	return {
		host: '127.0.0.1',
		port,
		child,
		async stop() {
			await stopChild(child);
			await fsp.rm(dir, { recursive: true, force: true }).catch(() => {});
		},
	};
}

/**
 * Postgres + Redis + one main + `workers` workers. `env` goes to every n8n process. The main starts
 * first (it runs the database migrations), then the workers.
 */
async function startQueueCluster({
	workers = 2,
	env = {},
	packageDir = REPO_ROOT,
	echo,
	logDir = process.env.N8N_E2E_LOG_DIR,
} = {}) {
	const logFile = (role) => (logDir ? path.join(logDir, `n8n-${role}.log`) : undefined);
	const pg = await startPostgres();
	let redis;
	let main;
	const started = [];
	try {
		redis = await startRedis();
		const shared = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: pg.host,
			DB_POSTGRESDB_PORT: String(pg.port),
			DB_POSTGRESDB_DATABASE: pg.database,
			DB_POSTGRESDB_USER: pg.user,
			DB_POSTGRESDB_PASSWORD: '',
			// every process must decrypt the same credentials
			N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex'),
			// n8n 1.x runs editor ("manual") executions on the main unless told; 2.x offloads them by default
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			QUEUE_HEALTH_CHECK_ACTIVE: 'false',
			...env,
		};
		// start-up takes minutes on a saturated 2-core machine: the limit only catches a hang
		const timeoutMs = 10 * 60 * 1000;
		main = await startN8n({ packageDir, env: shared, echo, logFile: logFile('main'), timeoutMs });
		started.push(main);
		const ws = await Promise.all(
			Array.from({ length: workers }, (_, k) =>
				startN8n({ packageDir, env: shared, worker: true, echo, logFile: logFile(`worker${k + 1}`), timeoutMs }),
			),
		);
		started.push(...ws);
		return {
			main,
			workers: ws,
			postgres: pg,
			redis,
			processes: () => [
				{ role: 'main', pid: main.child.pid },
				...ws.map((w, k) => ({ role: `worker ${k + 1}`, pid: w.child.pid })),
			],
			async stop() {
				for (const n of started.reverse()) await n.stop();
				await redis.stop();
				await pg.stop();
			},
		};
	} catch (e) {
		for (const n of started.reverse()) await n.stop().catch(() => {});
		if (redis) await redis.stop().catch(() => {});
		await pg.stop().catch(() => {});
		throw e;
	}
}

/** Peak resident memory (VmHWM, bytes) of a process so far, from Linux /proc; undefined when gone. */
function peakRssBytes(pid) {
	try {
		const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
		return m ? Number(m[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

module.exports = { startQueueCluster, startPostgres, startRedis, peakRssBytes };
