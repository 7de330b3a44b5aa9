/**
 * A busy account: other buyers (the merchant's website, mobile app, other scripts) creating records on the
 * same account all the time, so its lists scroll under a client that reads them back. A real server-side
 * generator: a timer inside the sandbox creates `rate` records per second on one user's account (debited
 * from its wallet like any purchase), with varied products and recipients; a share of them copy a recent
 * purchase of someone else on the account (same product, recipient, plan and amount), because on a busy
 * account the identical order really does get bought twice by different people.
 * Bounded: it stops by itself after `maxRecords` records or `durationMs`, and on reset / close.
 */
import {
	CABLE_PLANS,
	DATA_PLANS,
	DISCOS,
	EXAMS,
	NETWORKS,
	RECHARGE_DENOMS,
	airtimePercentBp,
	FIXTURES,
	planAvailable,
} from './catalog';
import { applyPercent } from './money';
import type { Tier } from './catalog';
import { Rng } from './rng';
import type { Product, SandboxState, Txn, TxnDetail, User } from './state';

export interface BusySpec {
	/** Records per second created by the other buyers (> 0, at most 1000). */
	rate: number;
	/** Whose account (default: the demo user). */
	username?: string;
	/** Stop after this many records. Default 100,000. */
	maxRecords?: number;
	/** Stop after this long (ms). Default 600,000 (10 minutes). */
	durationMs?: number;
	/** Share (0..1) of records that copy a recent purchase of another buyer on the account. Default 0.25. */
	mirrorShare?: number;
}

export interface BusyStatus {
	running: boolean;
	username: string | null;
	rate: number;
	maxRecords: number;
	durationMs: number;
	mirrorShare: number;
	/** Records created since the last start. */
	created: number;
	/** Of which copies of another buyer's purchase. */
	mirrored: number;
	/** Draws skipped because the wallet could not pay. */
	skipped: number;
	startedAt: string | null;
	/** Why it stopped: "stopped" (admin), "max_records", "duration", "reset", "closed", "no_user"; null while running. */
	stoppedReason: string | null;
}

/** The tag busy records carry (admin API `tag`): records no client of the test made. */
export const BUSY_TAG = 'busy';
const TICK_MS = 50;
/** At most this many records per tick, so a stalled event loop never turns into a burst of thousands. */
const MAX_PER_TICK = 200;

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.u32() % xs.length];

export class BusyAccount {
	private timer: NodeJS.Timeout | null = null;
	private rng = new Rng(1);
	private st: BusyStatus = idle();
	private t0 = 0;

	constructor(private readonly state: SandboxState) {}

	status(): BusyStatus {
		return { ...this.st };
	}

	start(spec: BusySpec): BusyStatus {
		this.stop('stopped');
		const username = spec.username ?? this.state.demoUser.username;
		if (!this.state.users.has(username)) throw new Error(`no such user ${username}`);
		this.rng = new Rng((this.state.seed * 31 + 7) ^ this.state.ledger.length);
		this.st = {
			running: true,
			username,
			rate: spec.rate,
			maxRecords: spec.maxRecords ?? 100_000,
			durationMs: spec.durationMs ?? 600_000,
			mirrorShare: spec.mirrorShare ?? 0.25,
			created: 0,
			mirrored: 0,
			skipped: 0,
			startedAt: new Date().toISOString(),
			stoppedReason: null,
		};
		this.t0 = Date.now();
		this.timer = setInterval(() => this.tick(), Math.min(TICK_MS, Math.max(5, Math.floor(1000 / spec.rate))));
		this.timer.unref();
		return this.status();
	}

	stop(reason: string): BusyStatus {
		if (this.timer) clearInterval(this.timer);
		this.timer = null;
		if (this.st.running) this.st = { ...this.st, running: false, stoppedReason: reason };
		return this.status();
	}

	private tick(): void {
		const elapsed = Date.now() - this.t0;
		const user = this.state.users.get(this.st.username ?? '');
		if (!user) return void this.stop('no_user');
		const due = Math.min(this.st.maxRecords, Math.floor((this.st.rate * Math.min(elapsed, this.st.durationMs)) / 1000));
		let n = Math.min(MAX_PER_TICK, due - this.st.created - this.st.skipped);
		while (n-- > 0) this.one(user);
		if (this.st.created + this.st.skipped >= this.st.maxRecords) this.stop('max_records');
		else if (elapsed >= this.st.durationMs) this.stop('duration');
	}

	private one(user: User): void {
		const mirror = this.rng.float() < this.st.mirrorShare ? this.recentOfOthers(user) : undefined;
		const draw = mirror ? copyOf(mirror) : freshDraw(this.rng, user);
		if (!user.funded || user.balanceKobo < draw.kobo) {
			this.st.skipped++;
			return;
		}
		if (this.state.config.customer_ref) draw.d.customerRef = '';
		draw.d.tag = BUSY_TAG;
		this.state.purchase(user, draw.product, draw.kobo, draw.recipient, draw.d, 'successful');
		this.st.created++;
		if (mirror) this.st.mirrored++;
	}

	/**
	 * One of the last 20 records per product that none of the busy buyers made (what the client under test
	 * buys), looking back at most 2,000 records: spread over them, so no single order gets copied many
	 * times a second.
	 */
	private recentOfOthers(user: User): Txn | undefined {
		const recent: Txn[] = [];
		for (const list of Object.values(user.txns)) {
			let found = 0;
			for (let i = list.length - 1; i >= 0 && i >= list.length - 2000 && found < 20; i--) {
				if (list[i].d.tag !== BUSY_TAG) {
					recent.push(list[i]);
					found++;
				}
			}
		}
		return recent.length ? pick(this.rng, recent) : undefined;
	}
}

function idle(): BusyStatus {
	return {
		running: false,
		username: null,
		rate: 0,
		maxRecords: 0,
		durationMs: 0,
		mirrorShare: 0,
		created: 0,
		mirrored: 0,
		skipped: 0,
		startedAt: null,
		stoppedReason: null,
	};
}

interface Draw {
	product: Product;
	kobo: number;
	recipient: string;
	d: TxnDetail;
}

/** The same order as `t` (product, recipient, plan, amount), without its deliverables or attribution. */
function copyOf(t: Txn): Draw {
	const { pins: _p, cards: _c, token: _t, raw: _r, apiResponse: _a, customerRef: _cr, tag: _tag, ...d } = t.d;
	return {
		product: t.product,
		kobo: t.amountKobo,
		recipient: t.recipient,
		d: { ...d, to: d.to ? [...d.to] : undefined },
	};
}

const phoneOf = (rng: Rng, prefixes: string[]): string => {
	const p = pick(rng, prefixes);
	return p + String(rng.u32() % 10 ** (11 - p.length)).padStart(11 - p.length, '0');
};

/** How often other buyers buy each product, in draws out of ten (data coupons: never). */
const WEIGHTS = { data: 3, airtime: 2, cable: 1, electricity: 1, exam_pin: 1, recharge_card: 1, sms: 1 } as const;
type Mixed = keyof typeof WEIGHTS;
/** One entry per draw out of ten, in the order above (the seeded draws depend on it). */
const MIX = (Object.keys(WEIGHTS) as Mixed[]).flatMap((p) => Array<Mixed>(WEIGHTS[p]).fill(p));

type Network = (typeof NETWORKS)[number];

/** A purchase another buyer makes: any product, mostly fresh recipients. */
function freshDraw(rng: Rng, user: User): Draw {
	const net = pick(rng, NETWORKS);
	return FRESH[pick(rng, MIX)](rng, user.tier, net);
}

/** Each product of the mix drawn fresh (the network is drawn first for all, as the draw order is seeded). */
const FRESH: Record<Mixed, (rng: Rng, tier: Tier, net: Network) => Draw> = {
	data: (rng, tier, net) => {
		const plan = pick(
			rng,
			DATA_PLANS.filter((p) => p.networkId === net.id && planAvailable(p)),
		);
		return {
			product: 'data',
			kobo: plan.price[tier],
			recipient: phoneOf(rng, net.prefixes),
			d: { networkId: net.id, planId: plan.id, ported: false },
		};
	},
	airtime: (rng, tier, net) => {
		const face = (50 + (rng.u32() % 20) * 50) * 100;
		const kobo = applyPercent(face, airtimePercentBp(net.name, 'VTU', tier));
		return {
			product: 'airtime',
			kobo,
			recipient: phoneOf(rng, net.prefixes),
			d: { networkId: net.id, ported: false, airtimeType: 'VTU', faceKobo: face },
		};
	},
	cable: (rng, tier) => {
		const plan = pick(rng, CABLE_PLANS);
		const card = pick(rng, [FIXTURES.iuc.GOTV, FIXTURES.iuc.DSTV, `7${String(rng.u32() % 1e9).padStart(9, '0')}`]);
		return {
			product: 'cable',
			kobo: plan.price[tier],
			recipient: card,
			d: { cableId: plan.cableId, cablePlanId: plan.id, customerName: 'OTHER BUYER' },
		};
	},
	electricity: (rng) => {
		const kobo = (500 + (rng.u32() % 40) * 100) * 100;
		const meter = `45${String(rng.u32() % 1e9).padStart(9, '0')}`;
		return {
			product: 'electricity',
			kobo,
			recipient: meter,
			d: {
				discoId: pick(rng, DISCOS).id,
				meterType: 'Prepaid',
				customerPhone: '',
				faceKobo: kobo,
				customerName: 'OTHER BUYER',
				customerAddress: '',
			},
		};
	},
	exam_pin: (rng, tier) => {
		const exam = pick(rng, EXAMS);
		return { product: 'exam_pin', kobo: exam.price[tier], recipient: exam.name, d: { exam: exam.name, quantity: 1 } };
	},
	recharge_card: (rng, tier) => {
		const denom = pick(rng, RECHARGE_DENOMS);
		return {
			product: 'recharge_card',
			kobo: denom.price[tier],
			recipient: 'Shop',
			d: { networkId: denom.networkId, denomId: denom.id, quantity: 1, nameOnCard: 'Shop' },
		};
	},
	sms: (rng) => {
		const to = [`234${phoneOf(rng, NETWORKS[0].prefixes).slice(1)}`];
		return {
			product: 'sms',
			kobo: 180,
			recipient: to.join(','),
			d: { sender: 'Shop', to, message: 'Your order is ready', pages: 1, rateKobo: 180, invalid: 0, dnd: false },
		};
	},
};
