/** The CLI prints three shell-ready lines, honours the env overrides and stops on SIGTERM. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

test('npm run sandbox: three lines, env-fixed token and admin key, clean SIGTERM', async () => {
	const root = join(__dirname, '../..');
	const token = 'ab'.repeat(20);
	const child = spawn(
		join(root, 'node_modules/.bin/tsx'),
		['sandbox/cli.ts', '--port', '0', '--dialect', 'family', '--seed', '9'],
		{
			cwd: root,
			env: { ...process.env, VTU_SANDBOX_TOKEN: token, VTU_ADMIN_KEY: 'demo-admin' },
		},
	);
	let out = '';
	await new Promise<void>((resolve, reject) => {
		child.stdout.on('data', (b) => {
			out += b;
			if (out.split('\n').length > 3) resolve();
		});
		child.on('exit', (code) => reject(new Error(`exited early (${code})`)));
	});
	const lines = out.trim().split('\n');
	expect(lines).toHaveLength(3);
	expect(lines[0]).toMatch(/^VTU_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/);
	expect(lines[1]).toBe(`VTU_API_TOKEN=${token}`);
	expect(lines[2]).toBe('VTU_ADMIN_KEY=demo-admin');
	const base = lines[0].split('=')[1];
	const me = await fetch(`${base}/api/user/`, { headers: { authorization: `Token ${token}` } });
	expect(((await me.json()) as { user: { username: string } }).user.username).toBe('demo'); // family dialect shape
	const exited = new Promise<number | null>((r) => child.once('exit', r));
	child.kill('SIGTERM');
	expect(await exited).toBe(0);
}, 30000);
