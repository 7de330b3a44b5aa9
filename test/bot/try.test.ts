/**
 * `npm run bot:try` as a newcomer uses it: a real process, typed into over stdin, read from stdout.
 * Every step waits for what the terminal shows, never for time.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

test('bot:try: /start, /balance, /data → MTN → plan → number → confirm → receipt in a terminal', async () => {
	const child = spawn(process.execPath, ['--import', 'tsx', 'tools/bot-try.ts'], {
		cwd: ROOT,
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	let out = '';
	let read = 0;
	const listeners = new Set<() => void>();
	const onData = (d: Buffer) => {
		out += d;
		for (const l of [...listeners]) l();
	};
	child.stdout.on('data', onData);
	child.stderr.on('data', onData);
	const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

	/** Wait until the output after the last match shows `re`; returns the match and moves past it. */
	const until = (re: RegExp) =>
		new Promise<RegExpExecArray>((resolve, reject) => {
			const check = () => {
				const m = re.exec(out.slice(read));
				if (m) {
					listeners.delete(check);
					read += m.index + m[0].length;
					resolve(m);
				} else if (child.exitCode !== null)
					reject(new Error(`bot:try exited (${child.exitCode}) before showing ${re}:\n${out}`));
			};
			listeners.add(check);
			void exited.then(check);
			check();
		});
	const type = (line: string) => child.stdin.write(`${line}\n`);

	try {
		await until(/Buttons are numbered: type a number to tap one/);
		type('/start');
		await until(/bot: Hello You! What would you like to do\?/);
		type('/balance');
		await until(/bot: 💰 Wallet balance: ₦1,000,000\.00/);
		type('/data');
		await until(/bot: Buy data: choose the network\./);
		type((await until(/\[(\d+)\] MTN\b/))[1]);
		await until(/\(you tapped "MTN"\)/);
		await until(/bot[^:]*: MTN data: choose a plan\./);
		type((await until(/\[(\d+)\] 1GB SME ₦250\.00 \(30 days\)/))[1]);
		await until(/Send the MTN phone number/);
		type('0803 123 4567');
		await until(
			new RegExp(
				String.raw`bot[^:]*: Confirm ₦250\.00 for 0803 123 4567 \(MTN\)\?\s+` +
					String.raw`Customer gets: MTN data 1GB SME \(30 days\) to 0803 123 4567 \(MTN\)\s+` +
					String.raw`You pay: ₦250\.00 from the wallet`,
			),
		);
		type((await until(/\[(\d+)\] ✅ Confirm: pay ₦250\.00/))[1]);
		const receipt = await until(
			new RegExp(
				String.raw`bot[^:]*: ✅ Delivered: MTN data 1GB SME \(30 days\) to 0803 123 4567\.\s+` +
					String.raw`Charged: ₦250\.00\s+Reference: (\S+)\s+Wallet after this order: ₦999,750\.00`,
			),
		);
		expect(receipt[1]).toMatch(/\S{6,}/);
		child.stdin.end();
		await until(/Bye\./);
		expect(await exited).toBe(0);
		// The terminal shows no token: neither the local bot token nor the sandbox's API token.
		expect(out).not.toMatch(/local-try-token|Token [0-9a-f]{40}/);
	} finally {
		if (child.exitCode === null) child.kill('SIGKILL');
	}
}, 120_000);

test('bot:try --storefront: /start → account, /pay x3 → told once, /data → receipt', async () => {
	const child = spawn(process.execPath, ['--import', 'tsx', 'tools/bot-try.ts', '--storefront'], {
		cwd: ROOT,
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	let out = '';
	let read = 0;
	const listeners = new Set<() => void>();
	child.stdout.on('data', (d: Buffer) => {
		out += d;
		for (const l of [...listeners]) l();
	});
	child.stderr.on('data', (d: Buffer) => {
		out += d;
		for (const l of [...listeners]) l();
	});
	const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
	const until = (re: RegExp) =>
		new Promise<RegExpExecArray>((resolve, reject) => {
			const check = () => {
				const m = re.exec(out.slice(read));
				if (m) {
					listeners.delete(check);
					read += m.index + m[0].length;
					resolve(m);
				} else if (child.exitCode !== null)
					reject(new Error(`bot:try exited (${child.exitCode}) before showing ${re}:\n${out}`));
			};
			listeners.add(check);
			void exited.then(check);
			check();
		});
	const type = (line: string) => child.stdin.write(`${line}\n`);
	try {
		await until(/Buttons are numbered: type a number to tap one/);
		type('/pay 100');
		await until(/type \/start first/);
		type('/start');
		const account = (await until(/Your account: (\d+)/))[1];
		type('/pay 5000 x3');
		await until(/💸 ₦5,000\.00 landed in your wallet\. Balance: ₦5,000\.00/);
		await until(new RegExp(`₦5,000\\.00 sent to ${account}; webhook delivered 3×: credited, duplicate, duplicate`));
		type('/data');
		type((await until(/\[(\d+)\] MTN\b/))[1]);
		// the seller's price: the sandbox's ₦250.00 plus the demo's 5% markup
		type((await until(/\[(\d+)\] 1GB SME ₦262\.50 \(30 days\)/))[1]);
		await until(/Send the MTN phone number/);
		type('0803 123 4567');
		type((await until(/\[(\d+)\] ✅ Confirm: pay ₦262\.50/))[1]);
		await until(/✅ Done: MTN data 1GB SME \(30 days\) to 0803 123 4567 \(MTN\)\s+Paid ₦262\.50 from your wallet\./);
		await until(/💰 Wallet: ₦4,737\.50/);
		child.stdin.end();
		await until(/Bye\./);
		expect(await exited).toBe(0);
		expect(out.match(/landed in your wallet/g)).toHaveLength(1);
		expect(out).not.toMatch(/local-try-token|Token [0-9a-f]{40}|sk_test_/);
	} finally {
		if (child.exitCode === null) child.kill('SIGKILL');
	}
}, 120_000);
