/**
 * The storefront chaos lane (`npm run chaos -- --storefront`): many customers fund their wallets and buy at
 * once, across storefront instances in separate OS processes (bench/chaos-storefront-instance.ts: the
 * webhook server + the order engine a bot instance runs) sharing one database: two on Postgres, then one on
 * SQLite. The store layer is driven directly (this process stands in for Telegram).
 *
 * Faults: webhooks replayed, sent to both instances at the same moment, delayed, held back and delivered in
 * shuffled order, forged (bad signature, tampered body, invented payments), a webhook the provider will not
 * confirm, outages of the provider's confirmation call (answered 503, delivered again), transfers into no
 * customer's account (parked); vendor faults on the purchase POST (--fault-rate:
 * timeouts and errors after the debit, errors before it, late failed flips) and late refunds by the vendor;
 * two orders of one customer at the same moment on two instances (two phones).
 *
 * The audit reads both sandboxes' own ledgers and the store's database (bench/chaos-storefront-audit.ts).
 * Last line: `storefront: <C> customers, <P> payments, <O> orders, <D> double credits, <S> overspends,
 * <R> lost refunds, books balance` (or `books DO NOT balance (<n> problems)`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PurchaseRequest } from '../client';
import { SandboxAdmin } from '../sandbox/admin-client';
import { Rng } from '../sandbox/rng';
import { startSandbox } from '../sandbox/server';
import { PaymentSandbox, type TransferRequest } from '../store/sandbox/payments';
import { signBody } from '../store/payments';
import { auditRun, storefrontLine, type StoreAudit } from './chaos-storefront-audit';
import type { Command, InstanceConfig, OrderReply } from './chaos-storefront-instance';

export interface StorefrontChaosOptions {
	seed?: number;
	customers?: number;
	/** orders per customer (two-phone pairs count as two) */
	orders?: number;
	/** share of vendor purchases that meet a fault; also drives webhook faults and late refunds */
	faultRate?: number;
	/**
	 * kill one of the two instances mid-run and start it again (`--crash`). Off by default. It used to end
	 * about one run in two with an order released although its linked record existed (docs/storefront.md)
	 */
	crash?: boolean;
	/** which runs: postgres (two instances) and/or sqlite (one) */
	backends?: ('postgres' | 'sqlite')[];
	log?: (line: string) => void;
}

export interface RunStats {
	backend: 'postgres' | 'sqlite';
	instances: number;
	customers: number;
	payments: number;
	orders: number;
	twoPhonePairs: number;
	/** instances killed mid-run (and started again) */
	crashes: number;
	/** orders whose instance died before answering (finished by the followers) */
	lostAnswers: number;
	refusedOrders: number;
	/** refusal code → count (insufficient_balance: the wallet did not cover it) */
	refusedBy: Record<string, number>;
	forgeries: number;
	webhookDeliveries: number;
	/** deliveries an instance answered 503 (confirmation failed: the provider delivers again) */
	webhookRetries: number;
	vendorFaults: Record<string, number>;
	lateRefunds: number;
	/** bot lane: customer flows that stopped before Confirm or a refusal (a step's answer missing) */
	skippedFlows?: string[];
	audit: StoreAudit;
}

const REPO = path.resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng.float() * (hi - lo + 1));

/** A storefront instance in its own OS process, driven over IPC. */
class InstanceProc {
	private next = 1;
	private readonly waiting = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
	webhookUrl = '';
	dead = false;
	private constructor(private readonly proc: ChildProcess) {
		proc.on('error', () => undefined); // a send on a closed channel: answered through send's callback
		proc.on('exit', () => {
			this.dead = true;
			// what it was doing never answers: the caller sees what a customer of a crashed bot sees
			for (const w of this.waiting.values()) w.fail(new Error('instance died'));
			this.waiting.clear();
		});
		proc.on('message', (m: { id?: number; ok?: unknown; error?: string }) => {
			const w = m.id !== undefined ? this.waiting.get(m.id) : undefined;
			if (!w) return;
			this.waiting.delete(m.id!);
			if (m.error !== undefined) w.fail(new Error(m.error));
			else w.ok(m.ok);
		});
	}

	static async start(cfg: InstanceConfig): Promise<InstanceProc> {
		const file = path.join(__dirname, 'chaos-storefront-instance.ts');
		const proc = spawn(process.execPath, ['--import', 'tsx', file, '--child'], {
			cwd: REPO,
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		const inst = new InstanceProc(proc);
		inst.webhookUrl = await new Promise<string>((resolve, reject) => {
			proc.once('message', (m: { ready?: string; failed?: string }) =>
				m.ready ? resolve(m.ready) : reject(new Error(`instance ${cfg.name}: ${m.failed}`)),
			);
			proc.once('exit', (code) => reject(new Error(`instance ${cfg.name} exited (${code})`)));
			proc.send({ config: cfg });
		});
		return inst;
	}

	call<T>(cmd: Command): Promise<T> {
		if (this.dead || !this.proc.connected) return Promise.reject(new Error('instance died'));
		const id = this.next++;
		return new Promise<T>((ok, fail) => {
			this.waiting.set(id, { ok: ok as (v: unknown) => void, fail });
			// the channel may close between the check and the send (the instance is being killed)
			this.proc.send({ id, cmd }, (err) => {
				if (!err) return;
				this.waiting.delete(id);
				fail(new Error('instance died'));
			});
		});
	}

	get alive(): boolean {
		return !this.dead && this.proc.connected;
	}

	/** SIGKILL: no cleanup, whatever it was doing is cut off (a crash, a kill -9, a lost machine). */
	async kill(): Promise<void> {
		if (this.dead) return;
		const exited = new Promise((r) => this.proc.once('exit', r));
		this.proc.kill('SIGKILL');
		await exited;
	}

	async close(): Promise<void> {
		if (this.dead) return;
		const exited = new Promise((r) => this.proc.once('exit', r));
		await this.call({ op: 'close' }).catch(() => undefined);
		await exited;
	}
}

/** Where the ledger lives for one run; Postgres is a private cluster started (and stopped) here. */
export async function database(
	backend: 'postgres' | 'sqlite',
	dir: string,
): Promise<{ url: string; stop(): Promise<void> }> {
	if (backend === 'sqlite') return { url: path.join(dir, 'store.sqlite'), stop: async () => undefined };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { startPostgres } = require('../test/n8n/queue') as {
		startPostgres: () => Promise<{ host: string; port: number; user: string; stop(): Promise<void> }>;
	};
	const pg = await startPostgres();
	return { url: `postgres://${pg.user}@${pg.host}:${pg.port}/postgres`, stop: () => pg.stop() };
}

const VENDOR_FAULTS = ['timeout_after', 'html_after', 'error_before', 'flip_later'] as const;

/** Vendor faults: each purchase POST meets one with probability `rate` (the sandbox's own fault rules). */
export async function armVendor(admin: SandboxAdmin, rate: number): Promise<void> {
	if (rate <= 0) return;
	for (const endpoint of ['POST /api/data/', 'POST /api/topup/'])
		for (const kind of VENDOR_FAULTS)
			await admin.addFault({ endpoint, kind, probability: rate / VENDOR_FAULTS.length, latencyMs: 300 });
}

export interface Customer {
	id: string;
	provider: 'paystack' | 'monnify';
	accountNumber: string;
	phone: string;
}

/** What funding, forging and the provider's late deliveries need of a run (the store lane's and the bot lane's). */
export interface FundContext {
	rng: Rng;
	o: { faultRate: number; customers: number };
	/** where each instance's payment webhook server listens (`<url>/webhooks/<provider>`) */
	insts: { webhookUrl: string }[];
	pay: PaymentSandbox;
	held: string[];
	stats: { forgeries: number; payments: number };
	problems: string[];
	/** the only provider the instances take webhooks from (else transfers to no customer go to either) */
	provider?: 'paystack' | 'monnify';
}

interface RunContext {
	rng: Rng;
	o: Required<Omit<StorefrontChaosOptions, 'log' | 'backends' | 'crash'>> & { crash: boolean };
	insts: InstanceProc[];
	pay: PaymentSandbox;
	held: string[];
	stats: {
		crashes: number;
		lostAnswers: number;
		forgeries: number;
		refused: number;
		refusedBy: Record<string, number>;
		pairs: number;
		orders: number;
		payments: number;
	};
	orderIds: string[];
	/** what the lane itself saw go wrong (a forgery accepted) */
	problems: string[];
	/** kill the last instance (SIGKILL) once this many orders were placed, and start a new one; 0: never */
	crashAt: number;
	restart: () => Promise<void>;
	log: (s: string) => void;
}

/** A random instance; one being restarted is skipped (a bot's load balancer sends the update elsewhere). */
function pickInst(c: RunContext): InstanceProc {
	const k = int(c.rng, 0, c.insts.length - 1);
	return c.insts[k].alive ? c.insts[k] : (c.insts.find((i) => i.alive) ?? c.insts[k]);
}

/** One incoming transfer with its webhook faults, drawn from the seed. */
export async function fund(c: FundContext, cu: Customer | null, amount: number): Promise<void> {
	const r = c.rng.float();
	const fr = c.o.faultRate;
	const t: TransferRequest = {
		provider: cu?.provider ?? c.provider ?? (c.rng.float() < 0.5 ? 'paystack' : 'monnify'),
		accountNumber: cu?.accountNumber ?? `77${int(c.rng, 10_000_000, 99_999_999)}`,
		amount,
		fee: Math.min(amount - 1, Math.round(amount * 0.01)),
		deliveries: r < fr ? int(c.rng, 2, 3) : 1,
		concurrent: c.rng.float() < 0.5,
		delayMs: c.rng.float() < fr ? int(c.rng, 20, 250) : 0,
		hold: c.rng.float() < fr,
		// the provider's verification call fails this many times: the receiver answers 503 and is retried
		verifyOutages: c.rng.float() < fr / 2 ? int(c.rng, 1, 3) : 0,
	};
	const forged = c.rng.float() < fr;
	// a signed webhook the provider will not confirm (never for the parked transfers: the lane wants some parked)
	const unpaid = c.rng.float() < fr / 3 && cu !== null;
	const out = await c.pay.transfer({ ...t, unpaid, hold: t.hold || forged });
	if (!unpaid) c.stats.payments++;
	if (forged) {
		// a forged copy first (the signature of another key), then the real one
		c.stats.forgeries++;
		const copies = await c.pay.deliver(out.reference, { badSignature: true, concurrent: true });
		// 0: the instance was down (killed mid-run), so nothing accepted it either
		for (const d of copies.deliveries)
			if (d.status !== 401 && d.status !== 0)
				c.problems.push(`forged webhook for ${out.reference} answered ${d.status}, not 401`);
		if (!t.hold) await c.pay.deliver(out.reference, t);
	}
	if (t.hold || forged) c.held.push(out.reference);
}

/** Forgeries that never were payments: invented references, a tampered amount, a body without signature. */
export async function forge(c: FundContext, cu: Customer): Promise<void> {
	const ref = `FORGED${int(c.rng, 1, 1e9)}`;
	const body =
		cu.provider === 'paystack'
			? { event: 'charge.success', data: { reference: ref, status: 'success', amount: 5_000_000 } }
			: { eventType: 'SUCCESSFUL_TRANSACTION', eventData: { transactionReference: ref, amountPaid: '50000.00' } };
	const raw = JSON.stringify(body);
	const header = cu.provider === 'paystack' ? 'x-paystack-signature' : 'monnify-signature';
	const sig = c.rng.float() < 0.5 ? { [header]: signBody('a-guessed-secret', raw) } : {};
	c.stats.forgeries++;
	await Promise.all(
		c.insts.map((i) =>
			fetch(`${i.webhookUrl}/webhooks/${cu.provider}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...sig },
				body: raw,
			}).then(
				(r) => {
					if (r.status !== 401) c.problems.push(`forged webhook ${ref} answered ${r.status}, not 401`);
					return r.text();
				},
				() => 'the instance is down (killed mid-run): nothing to forge against',
			),
		),
	);
}

function requestFor(c: RunContext, cu: Customer, n: number): PurchaseRequest {
	const phone = `0816${String(int(c.rng, 0, 9_999_999)).padStart(7, '0')}`;
	if (c.rng.float() < 0.5) return { product: 'data', network: 'MTN', plan: int(c.rng, 1, 4), phone };
	return { product: 'airtime', network: 'MTN', amount: String(int(c.rng, 1, 15) * 100), phone: n ? phone : cu.phone };
}

/** One order on a random instance, or two at the same moment on two instances (two phones). */
async function order(c: RunContext, cu: Customer, n: number): Promise<void> {
	const pair = c.insts.length > 1 && c.rng.float() < 0.25;
	const req = requestFor(c, cu, n);
	const jobs = pair
		? c.insts
				.slice(0, 2)
				.map((inst, k) => ({ inst: inst.alive ? inst : pickInst(c), id: `${cu.id}-o${n}${k ? 'b' : 'a'}` }))
		: [{ inst: pickInst(c), id: `${cu.id}-o${n}` }];
	if (pair) c.stats.pairs++;
	const replies = await Promise.all(
		jobs.map((j) =>
			j.inst
				.call<OrderReply>({ op: 'order', customer: cu.id, orderId: j.id, req })
				.catch((): OrderReply => ({ refused: 'no answer (instance died)' })),
		),
	);
	for (const [k, r] of replies.entries()) {
		c.stats.orders++;
		if (c.crashAt && c.stats.orders === c.crashAt) void c.restart();
		if ('refused' in r && r.refused.startsWith('no answer')) {
			// the order may be held in the database: the followers finish it
			c.stats.lostAnswers++;
			c.orderIds.push(jobs[k].id);
			continue;
		}
		if ('refused' in r) {
			c.stats.refused++;
			c.stats.refusedBy[r.refused] = (c.stats.refusedBy[r.refused] ?? 0) + 1;
		} else c.orderIds.push(jobs[k].id);
	}
}

/** A customer's life: funded a few times (some in parallel with their orders), then buying. */
async function customerLife(c: RunContext, cu: Customer): Promise<void> {
	const payments = int(c.rng, 1, 3);
	const amounts = Array.from({ length: payments }, () => int(c.rng, 800, 5000) * 100 + int(c.rng, 0, 99));
	const orders = Array.from({ length: c.o.orders }, (_, n) => n);
	const funding = (async () => {
		for (const a of amounts) await fund(c, cu, a);
		if (c.rng.float() < c.o.faultRate) await forge(c, cu);
	})();
	// the first order races the first webhook; the rest follow
	for (const n of orders) {
		await order(c, cu, n);
		if (n === 0) await funding;
	}
}

export async function pool<T>(items: T[], width: number, f: (x: T) => Promise<void>): Promise<void> {
	let next = 0;
	const lane = async () => {
		while (next < items.length) await f(items[next++]);
	};
	await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

/** Both lanes (instances here, real bots in chaos-storefront-bots.ts): one run per backend, in order. */
export async function perBackend(
	opts: StorefrontChaosOptions,
	run: (backend: 'postgres' | 'sqlite', opts: StorefrontChaosOptions) => Promise<RunStats>,
): Promise<RunStats[]> {
	const out: RunStats[] = [];
	for (const backend of opts.backends ?? ['postgres', 'sqlite']) out.push(await run(backend, opts));
	return out;
}

/** Both lanes' settings with their defaults. */
export function laneSettings(opts: StorefrontChaosOptions): RunContext['o'] {
	return {
		seed: opts.seed ?? 1,
		customers: opts.customers ?? 12,
		orders: opts.orders ?? 4,
		faultRate: opts.faultRate ?? 0.2,
		crash: opts.crash ?? false,
	};
}

export async function runStorefrontChaos(opts: StorefrontChaosOptions = {}): Promise<RunStats[]> {
	return perBackend(opts, runOne);
}

async function runOne(backend: 'postgres' | 'sqlite', opts: StorefrontChaosOptions): Promise<RunStats> {
	const o = laneSettings(opts);
	const log = opts.log ?? (() => undefined);
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-chaos-store-'));
	const sb = await startSandbox({ port: 0, dialect: 'family', seed: o.seed });
	const db = await database(backend, dir).catch(async (e) => {
		await sb.close();
		throw e;
	});
	const insts: InstanceProc[] = [];
	const pay = new PaymentSandbox({
		paystackSecret: 'sk_test_chaos',
		monnifyApiKey: 'MK_TEST_CHAOS',
		monnifySecret: 'monnify-chaos-secret',
		adminKey: 'chaos-admin',
		webhookUrls: { paystack: [], monnify: [] },
	});
	try {
		return await drive(backend, o, { sb, db, dir, insts, pay, log });
	} finally {
		for (const i of insts) await i.close().catch(() => undefined);
		await pay.stop();
		await sb.close();
		await db.stop();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

interface Infra {
	sb: Awaited<ReturnType<typeof startSandbox>>;
	db: { url: string };
	dir: string;
	insts: InstanceProc[];
	pay: PaymentSandbox;
	log: (s: string) => void;
}

async function drive(
	backend: 'postgres' | 'sqlite',
	o: RunContext['o'],
	{ sb, db, insts, pay, log }: Infra,
): Promise<RunStats> {
	const rng = new Rng(o.seed * 7919 + (backend === 'postgres' ? 1 : 2));
	const admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
	const { token } = await admin.createUser({ username: 'shop', balance: '5000000.00' });
	await pay.start();
	const maxProcessingMs = 1500;
	const cfg = (name: string): InstanceConfig => ({
		name,
		database: db.url,
		vendor: { baseUrl: sb.baseUrl, token, timeoutMs: 600, maxProcessingMs },
		payments: {
			baseUrl: pay.url,
			paystackSecret: pay.opts.paystackSecret,
			monnifyApiKey: pay.opts.monnifyApiKey,
			monnifySecret: pay.opts.monnifySecret,
		},
		markupPercent: 5,
	});
	const n = backend === 'postgres' ? 2 : 1;
	insts.push(...(await Promise.all(Array.from({ length: n }, (_, k) => InstanceProc.start(cfg(`i${k}`))))));
	for (const i of insts)
		for (const p of ['paystack', 'monnify'] as const) pay.opts.webhookUrls[p].push(`${i.webhookUrl}/webhooks/${p}`);
	const c: RunContext = {
		rng,
		o,
		insts,
		pay,
		held: [],
		stats: { crashes: 0, lostAnswers: 0, forgeries: 0, refused: 0, refusedBy: {}, pairs: 0, orders: 0, payments: 0 },
		orderIds: [],
		problems: [],
		// --crash: with two instances, one is killed about a third of the way through the orders, then restarted
		crashAt: n > 1 && o.crash ? Math.max(2, Math.round(o.customers * o.orders * 0.35)) : 0,
		restart: () => {
			const done = restartLast(c, pay, cfg);
			restarts.push(done);
			return done;
		},
		log,
	};
	const restarts: Promise<void>[] = [];
	const customers = await openCustomers(c);
	await armVendor(admin, o.faultRate);
	await pool(customers, 6, (cu) => customerLife(c, cu));
	await Promise.all(restarts);
	await admin.clearFaults();
	log(`${backend}: ${c.stats.orders} orders placed; delivering held webhooks, late refunds, follow-up`);
	const lateRefunds = await lateTraffic(c, admin);
	await followUp(c, maxProcessingMs);
	await retryUndelivered(c);
	const audit = await auditRun({
		database: db.url,
		pay,
		admin,
		vendorUser: 'shop',
		customers: customers.map((x) => x.id),
	});
	return statsOf(backend, c, customers.length, await admin.faultLog(), lateRefunds, audit);
}

/**
 * Both lanes, once the orders are done: the held webhooks delivered late, transfers to no customer, and the
 * vendor's late refunds (their count returned).
 */
export async function lateTraffic(c: FundContext, admin: SandboxAdmin): Promise<number> {
	await deliverHeld(c);
	const unowned = Math.max(1, Math.round((c.o.customers * c.o.faultRate) / 4));
	for (let k = 0; k < unowned; k++) await fund(c, null, 150_000 + k);
	return lateVendorRefunds(c, admin);
}

/** The figures both lanes count the same way: payments, refusals, forgeries, webhooks and vendor faults. */
export function sharedStats(
	c: FundContext & { stats: { refused: number; refusedBy: Record<string, number> } },
	faultLog: { kind: string }[],
	lateRefunds: number,
) {
	const vendorFaults: Record<string, number> = {};
	for (const f of faultLog) vendorFaults[f.kind] = (vendorFaults[f.kind] ?? 0) + 1;
	return {
		payments: c.stats.payments,
		refusedOrders: c.stats.refused,
		refusedBy: c.stats.refusedBy,
		forgeries: c.stats.forgeries,
		webhookDeliveries: c.pay.deliveries.length,
		webhookRetries: c.pay.deliveries.filter((d) => d.status === 503).length,
		vendorFaults,
		lateRefunds,
	};
}

function statsOf(
	backend: RunStats['backend'],
	c: RunContext,
	customers: number,
	faultLog: { kind: string }[],
	lateRefunds: number,
	audit: StoreAudit,
): RunStats {
	return {
		...sharedStats(c, faultLog, lateRefunds),
		backend,
		instances: c.insts.length,
		customers,
		orders: c.stats.orders,
		twoPhonePairs: c.stats.pairs,
		crashes: c.stats.crashes,
		lostAnswers: c.stats.lostAnswers,
		audit: { ...audit, problems: [...c.problems, ...audit.problems] },
	};
}

/** Kills the last instance (SIGKILL) mid-run and starts a new one on the same database. */
async function restartLast(c: RunContext, pay: PaymentSandbox, cfg: (name: string) => InstanceConfig): Promise<void> {
	const k = c.insts.length - 1;
	const old = c.insts[k];
	const providers = ['paystack', 'monnify'] as const;
	for (const p of providers) {
		const list = pay.opts.webhookUrls[p];
		list.splice(list.indexOf(`${old.webhookUrl}/webhooks/${p}`), 1);
	}
	await old.kill();
	c.stats.crashes++;
	c.log(`instance i${k} killed after ${c.stats.orders} orders; starting it again`);
	const fresh = await InstanceProc.start(cfg(`i${k}-restarted`));
	c.insts[k] = fresh;
	for (const p of providers) pay.opts.webhookUrls[p].push(`${fresh.webhookUrl}/webhooks/${p}`);
}

async function openCustomers(c: RunContext): Promise<Customer[]> {
	const list: Customer[] = [];
	for (let k = 0; k < c.o.customers; k++) {
		const id = `c${k}`;
		const provider = k % 2 ? 'monnify' : 'paystack';
		const r = await pickInst(c).call<{ accountNumber: string }>({ op: 'customer', id, provider });
		list.push({ id, provider, accountNumber: r.accountNumber, phone: `0803${String(k).padStart(7, '0')}` });
	}
	return list;
}

/** Held webhooks arrive late and in shuffled order (a provider's retry queue). */
export async function deliverHeld(c: FundContext): Promise<void> {
	const refs = [...c.held];
	for (let k = refs.length - 1; k > 0; k--) {
		const j = int(c.rng, 0, k);
		[refs[k], refs[j]] = [refs[j], refs[k]];
	}
	await Promise.all(
		refs.map((ref, k) => sleep(k * 5).then(() => c.pay.deliver(ref, { concurrent: c.rng.float() < 0.5 }))),
	);
}

/** The provider retries what no instance accepted (a 503 while confirmation failed), as real providers do. */
export async function retryUndelivered(c: FundContext): Promise<void> {
	for (let round = 0; round < 5; round++) {
		const ok = new Set(c.pay.deliveries.filter((d) => d.status === 200).map((d) => d.reference));
		const todo = [...c.pay.txs.values()].filter((t) => !ok.has(t.reference));
		if (!todo.length) return;
		for (const t of todo) await c.pay.deliver(t.reference);
	}
}

/** The vendor fails some successful purchases afterwards (its refund lands on the merchant wallet). */
export async function lateVendorRefunds(c: FundContext, admin: SandboxAdmin): Promise<number> {
	const ok = await admin.transactions({ username: 'shop', status: 'successful' });
	// a share of them, and at least one whenever faults are on (a small lane still sees a late refund)
	const picked = ok.filter(() => c.rng.float() < c.o.faultRate / 2);
	if (!picked.length && ok.length && c.o.faultRate > 0) picked.push(ok[int(c.rng, 0, ok.length - 1)]);
	for (const t of picked) await admin.setStatus(t.product, t.id, 'failed');
	return picked.length;
}

/** Every instance's follower sweeps at once, until nothing is open (or the bound has long passed). */
async function followUp(c: RunContext, maxProcessingMs: number): Promise<void> {
	// orders cut off by the crash are followed once they are older than the instances' held grace
	const until = Date.now() + maxProcessingMs * 8 + 25_000;
	await sleep(maxProcessingMs + 300);
	for (;;) {
		const states = await Promise.all(c.insts.map((i) => i.call<Record<string, number>>({ op: 'sweep' })));
		const open = states.reduce((s, x) => s + (x.held ?? 0) + (x.unknown ?? 0) + (x.waiting ?? 0), 0);
		c.log(`sweep: ${JSON.stringify(states)}`);
		if (!open || Date.now() > until) return;
		await sleep(300);
	}
}

export function formatRuns(runs: RunStats[]): string {
	const L: string[] = [];
	for (const r of runs) {
		const a = r.audit;
		L.push(
			`${r.backend} (${r.instances} instance${r.instances > 1 ? 's' : ''}): ${r.customers} customers, ` +
				`${r.payments} payments (${r.webhookDeliveries} webhook deliveries, ${r.webhookRetries} answered 503, ` +
				`${r.forgeries} forgeries), ` +
				`${r.orders} orders (${r.twoPhonePairs} two-phone pairs, ${r.refusedOrders} refused before a hold: ` +
				`${JSON.stringify(r.refusedBy)}); ` +
				`${r.crashes} instance killed mid-run, ${r.lostAnswers} orders left without an answer by it`,
		);
		L.push(`  orders by ledger state: ${JSON.stringify(a.ordersByState)}`);
		if (r.skippedFlows?.length)
			L.push(
				`  ${r.skippedFlows.length} customer flows stopped before Confirm: ${r.skippedFlows.slice(0, 3).join('; ')}`,
			);
		L.push(
			`  vendor: ${a.vendorRecords} records, ${a.vendorFailed} failed, faults ${JSON.stringify(r.vendorFaults)}, ` +
				`${r.lateRefunds} late refunds`,
		);
		L.push(
			`  kobo: paid in ${a.paidIn}, parked ${a.parked}, spent ${a.spent}, refunded ${a.refunded}, wallets ${a.wallets}`,
		);
		L.push(`  ${storefrontLine(r.customers, r.payments, r.orders, a)}`);
		for (const p of a.problems.slice(0, 30)) L.push(`  problem: ${p}`);
		if (a.problems.length > 30) L.push(`  … ${a.problems.length - 30} more problems`);
	}
	return L.join('\n');
}

/** The summed last line over every run; non-zero exit when anything is off. */
export function lastLine(runs: RunStats[]): { line: string; ok: boolean } {
	const sum = (f: (r: RunStats) => number) => runs.reduce((s, r) => s + f(r), 0);
	const total: StoreAudit = {
		...runs[0].audit,
		doubleCredits: sum((r) => r.audit.doubleCredits),
		overspends: sum((r) => r.audit.overspends),
		lostRefunds: sum((r) => r.audit.lostRefunds),
		problems: runs.flatMap((r) => r.audit.problems),
	};
	const line = storefrontLine(
		sum((r) => r.customers),
		sum((r) => r.payments),
		sum((r) => r.orders),
		total,
	);
	const ok = !total.doubleCredits && !total.overspends && !total.lostRefunds && !total.problems.length;
	return { line, ok };
}
