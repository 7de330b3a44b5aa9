// Packs the package (`npm pack`, as published) and runs n8n's community-package scanner
// (@n8n/scan-community-package, pinned devDependency) on it offline, the two legs its
// analyzePackageByName runs after the provenance check: the unpacked tarball (compiled .js and the
// published package.json) and the source it was built from (package.json, nodes/, credentials/).
// Prints {dist, source} as JSON; exits 1 when either leg fails. Needs a build (`npm run build`).
// Run: node test/nodes/scan-package.mjs [tarball]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOURCE_FILE_PATTERNS, analyzePackage } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'vtu-scan-'));
try {
	const tarball =
		process.argv[2] ??
		join(
			work,
			execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: root, encoding: 'utf8' })
				.trim()
				.split('\n')
				.pop(),
		);
	const unpacked = join(work, 'package');
	mkdirSync(unpacked);
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	const summary = (r) => ({ passed: r.passed, message: r.message ?? null, details: r.details ?? null });
	const dist = summary(await analyzePackage(unpacked, ['**/*.js', 'package.json']));
	const source = summary(await analyzePackage(root, SOURCE_FILE_PATTERNS));
	process.stdout.write(JSON.stringify({ dist, source }) + '\n');
	process.exitCode = dist.passed && source.passed ? 0 : 1;
} finally {
	rmSync(work, { recursive: true, force: true });
}
