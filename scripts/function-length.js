#!/usr/bin/env node
/**
 * Fails when a function in product code (client/, nodes/, bot/, sandbox/, store/) spans more than 80 lines,
 * counted from its first line to its closing brace, nested functions included (each is checked on its own
 * too). Run by `npm run lint`; it lists every function over the limit and fails if there is one. There are
 * no exceptions: split a long function by what it does.
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const LIMIT = 80;
const FOLDERS = ['client', 'nodes', 'bot', 'sandbox', 'store'];

const root = path.resolve(__dirname, '..');

function tsFiles(dir) {
	const out = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, entry.name);
		if (entry.isDirectory()) out.push(...tsFiles(p));
		else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(p);
	}
	return out;
}

/** A readable name: the declaration's, the variable or property it is assigned to, or the enclosing one's. */
function nameOf(node) {
	const own = node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
	const cls = node.parent && ts.isClassLike(node.parent) && node.parent.name ? node.parent.name.text : undefined;
	if (ts.isConstructorDeclaration(node)) return `${cls ?? '<class>'}.constructor`;
	if (own) return cls ? `${cls}.${own}` : own;
	const p = node.parent;
	if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p))) {
		if (ts.isIdentifier(p.name)) return p.name.text;
	}
	for (let up = node.parent; up; up = up.parent) {
		if (ts.isFunctionLike(up) && up !== node) return `${nameOf(up)} (inner function)`;
	}
	return '<anonymous>';
}

function longFunctions(file) {
	const text = fs.readFileSync(file, 'utf8');
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found = [];
	const visit = (node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			const lines = last - first + 1;
			if (lines > LIMIT) found.push({ name: nameOf(node), line: first + 1, lines });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

let failed = false;
for (const folder of FOLDERS) {
	const dir = path.join(root, folder);
	if (!fs.existsSync(dir)) continue;
	for (const file of tsFiles(dir)) {
		const rel = path.relative(root, file).split(path.sep).join('/');
		for (const f of longFunctions(file)) {
			failed = true;
			console.error(`error: ${rel}:${f.line} ${f.name} is ${f.lines} lines (limit ${LIMIT}); split it by what it does`);
		}
	}
}
process.exit(failed ? 1 : 0);
