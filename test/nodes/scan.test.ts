/**
 * The published tarball passes n8n's community-package scanner with no errors (see
 * scan-package.mjs: the scanner's tarball and source legs, offline). Builds first when dist/ is
 * missing, so `npm ci && npm test` works on a fresh clone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

test('the packed tarball and its source pass @n8n/scan-community-package', () => {
	if (!existsSync(join(root, 'dist', 'nodes'))) {
		execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
	}
	let out: string;
	try {
		// eslint-plugin-n8n-nodes-base switches to its own rule-test mode under NODE_ENV=test (jest's)
		const env = { ...process.env, NODE_ENV: 'production' };
		out = execFileSync(process.execPath, [join(__dirname, 'scan-package.mjs')], { cwd: root, encoding: 'utf8', env });
	} catch (error) {
		out = String((error as { stdout?: string }).stdout ?? '');
	}
	const { dist, source } = JSON.parse(out.trim().split('\n').pop() ?? '{}');
	expect({ dist: dist.details, source: source.details }).toEqual({ dist: null, source: null });
	expect([dist.passed, source.passed]).toEqual([true, true]);
}, 600_000);
