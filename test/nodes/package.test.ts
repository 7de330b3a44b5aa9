/**
 * What n8n installs: a verified community package has no `dependencies` (n8n Cloud installs none);
 * its code may import only n8n-workflow (the peer) and modules n8n itself provides. Of the lint's
 * allowed list, zod and node:crypto are there in every n8n we support; p-limit is not (n8n 1.123
 * has none), so it is not allowed here.
 * The bot and the sandbox run from a clone; the client's standalone entry (node:http transport,
 * timers) is left out of the package by negated "files" entries.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Source files whose compiled output the package ships (a `!dist/client/x.*` entry drops client/x.ts). */
function shippedSources(dir: string): string[] {
	const dropped = (pkg.files as string[])
		.filter((f) => f.startsWith('!dist/'))
		.map((f) => f.slice('!dist/'.length).replace(/\.\*$/, '.ts'));
	return readdirSync(join(root, dir), { recursive: true })
		.map((f) => join(dir, String(f)))
		.filter((f) => f.endsWith('.ts') && statSync(join(root, f)).isFile() && !dropped.includes(f));
}

/** Bare module names a file imports (type-only imports included: simpler, and costs nothing). */
function imports(file: string): string[] {
	const text = readFileSync(join(root, file), 'utf8');
	const names = [...text.matchAll(/\bfrom\s+'([^'.][^']*)'|\brequire\('([^'.][^']*)'\)/g)].map((m) => m[1] ?? m[2]);
	return names.map((n) => (n.startsWith('@') ? n.split('/').slice(0, 2).join('/') : n.split('/')[0]));
}

test('no runtime dependencies; n8n-workflow is the only peer', () => {
	expect(pkg.dependencies ?? {}).toEqual({});
	expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	expect(pkg.n8n.strict).toBe(true);
});

test('the shipped code imports only n8n-workflow and what n8n provides', () => {
	const provided = new Set(['n8n-workflow', 'zod', 'node:crypto']);
	const foreign: string[] = [];
	for (const dir of ['nodes', 'credentials', 'client']) {
		for (const file of shippedSources(dir)) {
			for (const name of imports(file)) if (!provided.has(name)) foreign.push(`${file}: ${name}`);
		}
	}
	expect(foreign).toEqual([]);
});

test('relative imports of the shipped code stay inside what is shipped (not the standalone client/index)', () => {
	const shipped = new Set(['nodes', 'credentials', 'client'].flatMap((d) => shippedSources(d)));
	const missing: string[] = [];
	for (const file of shipped) {
		const text = readFileSync(join(root, file), 'utf8');
		for (const m of text.matchAll(/\bfrom\s+'(\.[^']*)'/g)) {
			const target = join(file, '..', m[1]);
			if (!shipped.has(`${target}.ts`) && !shipped.has(join(target, 'index.ts'))) missing.push(`${file}: ${m[1]}`);
		}
	}
	expect(missing).toEqual([]);
});

test('the published files hold the nodes, the credential, the client core and the icons', () => {
	expect(pkg.files).toEqual(expect.arrayContaining(['dist/nodes', 'dist/credentials', 'dist/client', 'dist/icons']));
	for (const p of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		expect(pkg.files.some((f: string) => p.startsWith(f + '/'))).toBe(true);
	}
	expect(pkg.main).toBe('dist/client/core.js');
});
