/**
 * Several bot instances starting at once on a fresh SQLite file (bot/README "Running several instances")
 * must not create the schema twice ("table orders already exists"): the version is read under the write lock.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase } from '../../bot/db';

const ROOT = resolve(__dirname, '../..');
const OPEN =
	"require('tsx/cjs'); const { openDatabase } = require('./bot/db.ts'); " + 'openDatabase(process.argv[1]).close();';

function openInChild(path: string): Promise<{ code: number | null; err: string }> {
	return new Promise((done) => {
		const p = spawn(process.execPath, ['-e', OPEN, path], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
		let err = '';
		p.stderr.on('data', (d) => (err += d));
		p.on('close', (code) => done({ code, err }));
	});
}

jest.setTimeout(120_000);

test('four processes open one fresh journal at once: each migrates it or finds it migrated', async () => {
	const dir = mkdtempSync(join(tmpdir(), 'vtu-migrate-'));
	try {
		for (const round of [1, 2, 3]) {
			const path = join(dir, `bot-${round}.sqlite`);
			const runs = await Promise.all([1, 2, 3, 4].map(() => openInChild(path)));
			for (const r of runs) expect(r).toEqual({ code: 0, err: '' });
			const db = openDatabase(path);
			const cols = (db.prepare(`PRAGMA table_info(orders)`).all() as { name: string }[]).map((c) => c.name);
			expect(cols).toEqual(expect.arrayContaining(['recheck_at', 'customer_ref', 'error_field']));
			// 7 moved the language picks into kv and dropped user_locales
			expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'user_locales'`).get()).toBeUndefined();
			expect(db.pragma('user_version', { simple: true })).toBe(7);
			db.close();
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
