#!/usr/bin/env node
/**
 * Fails when a line of code (.ts, .js, .mjs, .sh) is longer than 120 characters in the folders listed in
 * FOLDERS. Prettier wraps code but not strings or comments, so those are wrapped by hand (split a string
 * with +). Run by `npm run lint`.
 *
 * Every folder of code is listed. Length is counted in UTF-8 bytes, a tab as one (as `awk 'length>120'`
 * does): "₦" counts 3.
 */
const fs = require('node:fs');
const path = require('node:path');

const LIMIT = 120;
const FOLDERS = ['client', 'nodes', 'credentials', 'sandbox', 'store', 'tools', 'bench', 'test', 'scripts', 'bot'];
/** Not checked: generated or built files. */
const SKIP = new Set(['test/n8n/fixtures', 'node_modules']);
const EXTENSIONS = ['.ts', '.js', '.mjs', '.sh'];

const root = path.resolve(__dirname, '..');

function codeFiles(dir) {
	const out = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, entry.name);
		const rel = path.relative(root, p).split(path.sep).join('/');
		if (SKIP.has(rel) || SKIP.has(entry.name)) continue;
		if (entry.isDirectory()) out.push(...codeFiles(p));
		else if (EXTENSIONS.some((e) => entry.name.endsWith(e))) out.push(p);
	}
	return out;
}

let failed = false;
for (const folder of FOLDERS) {
	const dir = path.join(root, folder);
	if (!fs.existsSync(dir)) continue;
	for (const file of codeFiles(dir)) {
		const rel = path.relative(root, file).split(path.sep).join('/');
		fs.readFileSync(file, 'utf8')
			.split('\n')
			.forEach((line, i) => {
				const length = Buffer.byteLength(line, 'utf8');
				if (length <= LIMIT) return;
				failed = true;
				console.error(`error: ${rel}:${i + 1} is ${length} characters (limit ${LIMIT}); wrap it by hand`);
			});
	}
}
process.exit(failed ? 1 : 0);
