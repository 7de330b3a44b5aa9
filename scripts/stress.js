#!/usr/bin/env node
/**
 * `npm run test:stress`: the whole `npm test` suite, STRESS_RUNS times in a row (default 3), while
 * one busy-loop process per core keeps every core saturated. Proves the suite waits on conditions,
 * never on time. Extra arguments go to jest (e.g. a test path). Stops at the first failing run.
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const os = require('node:os');
const { join } = require('node:path');

const runs = Number(process.env.STRESS_RUNS || 3);
const cores = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
const jestBin = require.resolve('jest/bin/jest');
const tmp = mkdtempSync(join(os.tmpdir(), 'vtu-stress-'));
const log = (line) => process.stdout.write(`[stress] ${line}\n`);

const burners = Array.from({ length: cores }, () =>
	spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopBurners = () => {
	for (const b of burners) if (b.exitCode === null && b.signalCode === null) b.kill('SIGKILL');
};
process.on('exit', () => {
	stopBurners();
	rmSync(tmp, { recursive: true, force: true });
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

function jestOnce(n) {
	const out = join(tmp, `run-${n}.json`);
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [jestBin, '--json', `--outputFile=${out}`, ...process.argv.slice(2)], {
			stdio: 'inherit',
		});
		child.on('exit', (code) => {
			let report = { numPassedTests: 0, numFailedTests: 0, numTotalTests: 0 };
			try {
				report = JSON.parse(readFileSync(out, 'utf8'));
			} catch {
				/* jest died before writing its report: counted as a failed run below */
			}
			resolve({ code, report });
		});
	});
}

(async () => {
	log(`${burners.length} busy-loop processes (one per core) started; ${runs} run(s) of the suite`);
	let passed = 0;
	let failed = 0;
	for (let n = 1; n <= runs; n++) {
		const t0 = Date.now();
		const { code, report } = await jestOnce(n);
		const s = Math.round((Date.now() - t0) / 1000);
		passed += report.numPassedTests;
		failed += report.numFailedTests + (code === 0 ? 0 : report.numFailedTests === 0 ? 1 : 0);
		log(
			`run ${n}/${runs}: ${report.numPassedTests} passed, ${report.numFailedTests} failed of ${report.numTotalTests} in ` +
				`${s} s (jest exit ${code}; load average ${os.loadavg()[0].toFixed(1)})`,
		);
		if (code !== 0) break;
	}
	stopBurners();
	process.stdout.write(`stress: ${passed} passed, ${failed} failed\n`);
	process.exit(failed === 0 ? 0 : 1);
})();
