/**
 * npm run sandbox -- [--port 8080] [--dialect seed|family] [--build legitdata|husmodata|muhallidata|legacy]
 *   [--seed 7] [--busy <records/s>]
 * Prints three shell-ready lines (base URL, demo token, admin key) and runs until SIGINT/SIGTERM.
 * VTU_SANDBOX_TOKEN / VTU_ADMIN_KEY fix the demo token / admin key (handy for demos).
 */
import { parseArgs } from 'node:util';
import { type BuildName, checkBuild } from './builds';
import { startSandbox } from './server';

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '8080' },
			dialect: { type: 'string' },
			build: { type: 'string' },
			seed: { type: 'string', default: '1' },
			log: { type: 'boolean', default: false },
			busy: { type: 'string' },
		},
	});
	const dialect = values.dialect ?? (values.build ? 'family' : 'seed');
	if (dialect !== 'seed' && dialect !== 'family') throw new Error('--dialect must be seed or family');
	if (values.build !== undefined) checkBuild(values.build, dialect);
	const busy = values.busy === undefined ? undefined : Number(values.busy);
	if (busy !== undefined && !(busy > 0 && busy <= 1000))
		throw new Error('--busy must be records per second, above 0 and at most 1000');
	const sb = await startSandbox({
		port: Number(values.port),
		dialect,
		build: values.build as BuildName | undefined,
		seed: Number(values.seed),
		demoToken: process.env.VTU_SANDBOX_TOKEN || undefined,
		adminKey: process.env.VTU_ADMIN_KEY || undefined,
		logger: values.log,
		busy: busy === undefined ? undefined : { rate: busy },
	});
	process.stdout.write(`VTU_BASE_URL=${sb.baseUrl}\nVTU_API_TOKEN=${sb.demo.token}\nVTU_ADMIN_KEY=${sb.adminKey}\n`);
	// `on`, not `once`, and idempotent: tsx relays a signal to this process, and a second copy of it must
	// not fall through to Node's default (exit 143) while the server is still closing.
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		sb.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((err) => {
	process.stderr.write(`sandbox: ${err.message}\n`);
	process.exit(1);
});
