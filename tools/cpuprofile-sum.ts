/**
 * Sums a V8 .cpuprofile (node --cpu-prof) into buckets, so a profile's attribution is repeatable:
 * `npx tsx tools/cpuprofile-sum.ts FILE.cpuprofile [--per-update-ms 1.2] [--top 25]`.
 *
 * Each sample goes to the NEAREST frame on its stack that is JavaScript of a known place (a package in
 * node_modules, or a file of this repository); frames without a file (native code: better-sqlite3's
 * statements, JSON.parse, RegExp), Node's own modules (node:*) and better-sqlite3's wrappers are skipped on the
 * way up, so a SQLite statement counts where it was run from (the journal, the conversation storage); the
 * SQLite part of each is printed too. The profiler samples the main thread by wall clock: a commit blocked
 * in fsync counts like CPU, which is right for a bot whose one event loop is the bottleneck. A sample with no such
 * frame counts by its leaf: GC, Node's internals (sockets, fetch, timers, microtasks), program, idle.
 * Idle is left out of the shares. `--per-update-ms`: the bot's CPU per update from the same run, to turn
 * shares into ms per update. Prints buckets and the top modules (package or file) by share.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

type Frame = { functionName: string; url: string };
type Node = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** Buckets, first match wins, on the module name `moduleOf` gives. */
const BUCKETS: [string, RegExp][] = [
	['conversations plugin (replay + storage)', /^(@grammyjs\/conversations|bot\/storage\.ts)/],
	['journal / SQLite (dedupe, orders)', /^(bot\/(journal|db|orders|follower)\.ts|better-sqlite3)/],
	['i18n / texts', /^(@fluent\/|bot\/i18n\.ts|bot\/locales)/],
	['client purchase', /^(client\/|undici)/],
	['grammY core + Bot API transport', /^(grammy|@grammyjs\/(runner|auto-chat-action|auto-retry)|bot\/bot-api-fetch)/],
	['bot flows + features', /^bot\/(flow|features)\//],
	['bot middlewares + wiring', /^bot\//],
	['GC', /^\(garbage collector\)$/],
	['node internals (I/O, fetch, timers)', /^node:/],
	['bench harness (IPC)', /^bench\//],
];

/** "grammy", "@grammyjs/conversations", "bot/journal.ts", "node:internal", "(garbage collector)", or "" (native). */
function moduleOf(f: Frame): string {
	const url = f.url.replace(/^file:\/\//, '');
	if (!url) return f.functionName.startsWith('(') ? f.functionName : '';
	if (url.startsWith('node:')) return 'node:';
	const nm = url.lastIndexOf('/node_modules/');
	if (nm >= 0) {
		const parts = url.slice(nm + 14).split('/');
		return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
	}
	const m = /\/((?:bot|client|bench|sandbox|shared|nodes|test)\/.*)$/.exec(url);
	return m ? m[1] : url;
}

/** Helpers whose time belongs to their caller: native code, Node's modules, better-sqlite3's JS wrappers. */
const TRANSPARENT = (m: string) => m === '' || m === 'node:' || m === 'better-sqlite3' || m.startsWith('(');

export function sumProfile(p: Profile) {
	const byId = new Map(p.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	/** Per node: the module its samples belong to, and whether they are inside better-sqlite3 (a statement). */
	const owner = new Map<number, { m: string; fn: string; sql: boolean }>();
	const ownerOf = (id: number) => {
		const hit = owner.get(id);
		if (hit) return hit;
		let cur: number | undefined = id;
		let m = '';
		let fn = '';
		let sql = false;
		let nodeSeen = false;
		while (cur !== undefined) {
			const here = moduleOf(byId.get(cur)!.callFrame);
			if (!TRANSPARENT(here)) {
				m = here;
				fn = `${here} ${byId.get(cur)!.callFrame.functionName || '(anonymous)'}`;
				break;
			}
			if (here === 'better-sqlite3') sql = true;
			if (here === 'node:') nodeSeen = true;
			cur = parent.get(cur);
		}
		const leaf = moduleOf(byId.get(id)!.callFrame);
		if (!m) m = leaf.startsWith('(') ? leaf : nodeSeen ? 'node:' : '(native, no JS caller)';
		// a native leaf right under a better-sqlite3 wrapper or a statement method run from the bot's code
		if (!sql && leaf === '' && /^(run|get|all|iterate|exec|prepare|pragma)$/.test(byId.get(id)!.callFrame.functionName))
			sql = true;
		const r = { m, fn: fn || m, sql };
		owner.set(id, r);
		return r;
	};
	const byModule = new Map<string, number>();
	const sqlByModule = new Map<string, number>();
	const byFunction = new Map<string, number>();
	const add = (map: Map<string, number>, k: string, us: number) => map.set(k, (map.get(k) ?? 0) + us);
	p.samples.forEach((id, i) => {
		const { m, fn, sql } = ownerOf(id);
		add(byModule, m, p.timeDeltas[i] ?? 0);
		add(byFunction, fn, p.timeDeltas[i] ?? 0);
		if (sql) add(sqlByModule, m, p.timeDeltas[i] ?? 0);
	});
	byModule.delete('(idle)');
	const total = [...byModule.values()].reduce((a, b) => a + b, 0);
	const byBucket = new Map<string, number>();
	for (const [m, us] of byModule) add(byBucket, BUCKETS.find(([, re]) => re.test(m))?.[0] ?? 'other', us);
	byFunction.delete('(idle)');
	return { total, byModule, byBucket, sqlByModule, byFunction };
}

function main(): void {
	const { values, positionals } = parseArgs({
		allowPositionals: true,
		options: { 'per-update-ms': { type: 'string' }, top: { type: 'string', default: '25' } },
	});
	const perUpdate = values['per-update-ms'] ? Number(values['per-update-ms']) : undefined;
	for (const file of positionals) {
		const { total, byModule, byBucket, sqlByModule, byFunction } = sumProfile(
			JSON.parse(readFileSync(file, 'utf8')) as Profile,
		);
		const row = (label: string, us: number) =>
			`  ${label.padEnd(44)}${((100 * us) / total).toFixed(1).padStart(6)}%` +
			(perUpdate ? `${((perUpdate * us) / total).toFixed(3).padStart(9)} ms/update` : '');
		const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
		console.log(`${file}: ${(total / 1000).toFixed(0)} ms of samples (idle left out)`);
		for (const [b, us] of sorted(byBucket)) console.log(row(b, us));
		console.log('  top modules:');
		for (const [m, us] of sorted(byModule).slice(0, Number(values.top))) console.log(row(`  ${m}`, us));
		console.log('  top functions (the nearest JS frame of the module):');
		for (const [m, us] of sorted(byFunction).slice(0, Number(values.top))) console.log(row(`  ${m}`, us));
		console.log('  of which inside SQLite statements (better-sqlite3, native), by caller:');
		for (const [m, us] of sorted(sqlByModule)) console.log(row(`  ${m}`, us));
	}
}

if (require.main === module) main();
