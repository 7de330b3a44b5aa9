/**
 * What n8n installs: its community-package installer strips devDependencies and runs
 * `npm install --ignore-scripts` on the rest, so everything the nodes, the credential and the
 * client import must be a dependency (or n8n-workflow, which n8n provides); the bot and the
 * sandbox run from a clone and keep their packages out of the n8n install.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : /\.ts$/.test(f) ? [p] : [];
  });
}

/** Bare package names a file imports (type-only imports included: they cost nothing, but keep it simple). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const names = [...text.matchAll(/\bfrom\s+'([^'.][^']*)'|\brequire\('([^'.][^']*)'\)/g)].map((m) => m[1] ?? m[2]);
  return names.map((n) => (n.startsWith('@') ? n.split('/').slice(0, 2).join('/') : n.split('/')[0]));
}

test('the n8n package imports only its dependencies, n8n-workflow and Node built-ins', () => {
  const allowed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies), ...builtinModules]);
  const missing: string[] = [];
  for (const dir of ['nodes', 'credentials', 'client']) {
    for (const file of sources(join(root, dir))) {
      for (const name of imports(file)) {
        if (!allowed.has(name.replace(/^node:/, ''))) missing.push(`${file.slice(root.length + 1)}: ${name}`);
      }
    }
  }
  expect(missing).toEqual([]);
  // and the bot's and sandbox's packages stay out of what n8n installs
  for (const name of ['grammy', 'fastify', 'better-sqlite3', 'ioredis']) expect(pkg.dependencies[name]).toBeUndefined();
});

test('the published files hold the nodes, the credential, the client and the icons', () => {
  expect(pkg.files).toEqual(expect.arrayContaining(['dist/nodes', 'dist/credentials', 'dist/client']));
  for (const p of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
    expect(pkg.files.some((f: string) => p.startsWith(f + '/'))).toBe(true);
  }
});
