#!/usr/bin/env node
/**
 * Print every built node's `description` (and its methods' names) as one JSON document, so two builds can be
 * diffed: `node scripts/node-descriptions.js <dist dir> > a.json`, then `diff a.json b.json`.
 * Saved workflows open as long as type names, parameter names and values stay the same.
 */
const fs = require('node:fs');
const path = require('node:path');

const dist = path.resolve(process.argv[2] ?? 'dist');
const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
const out = {};
for (const file of pkg.n8n.nodes) {
	const abs = path.join(dist, path.relative('dist', file));
	const mod = require(abs);
	// the class named like its file (a node file may export helpers too)
	const exported = path.basename(abs, '.node.js');
	const node = new mod[exported]();
	{
		const methods = {};
		for (const [group, fns] of Object.entries(node.methods ?? {})) methods[group] = Object.keys(fns).sort();
		out[exported] = { description: node.description, methods };
	}
}
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
