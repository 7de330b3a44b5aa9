/** `npm run demo -- --storefront` as anyone runs it: the walk-through ends with balanced books. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

test('the storefront demo: funded once through replays, forgery refused, refunded once, books balance', async () => {
	const child = spawn('bash', ['scripts/demo.sh', '--storefront'], {
		cwd: join(__dirname, '..', '..'),
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let out = '';
	child.stdout.on('data', (d: Buffer) => (out += d));
	child.stderr.on('data', (d: Buffer) => (out += d));
	const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
	expect(out).toContain('(webhook answers: credited, duplicate, duplicate)');
	expect(out).toContain('(forged delivery: HTTP 401)');
	expect(out.match(/landed in your wallet/g)).toHaveLength(1);
	expect(out.match(/was refunded to your wallet/g)).toHaveLength(1);
	expect(out).toMatch(/wallets ₦5,000\.00 = paid in ₦5,000\.00 − spent ₦262\.50 \+ refunded ₦262\.50/);
	expect(out).toContain('audit: no problems, books balance');
	expect(out).not.toMatch(/sk_test_|local-demo-token/);
	expect(code).toBe(0);
}, 120_000);
