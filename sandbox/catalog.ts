/**
 * The seeded catalogue: networks, plans, cable packages, discos, exam and recharge prices,
 * airtime percentages, SMS rates, and the fixture numbers for validation endpoints.
 * Static and identical for every seed, so README tables and tests can rely on the IDs.
 * Prices are integer kobo per user type, in TIERS order.
 */
import { parseNaira, percentToBp } from './money';

export const USER_TYPES = ['Smart Earner', 'Affilliate', 'TopUser', 'API'] as const;
export type UserType = (typeof USER_TYPES)[number];
/** Index into a price tuple. */
export type Tier = 0 | 1 | 2 | 3;
export type TierPrices = [number, number, number, number];

export function tierOf(userType: UserType): Tier {
	return USER_TYPES.indexOf(userType) as Tier;
}

const k = (naira: string | number): number => {
	const v = parseNaira(naira);
	if (v === null) throw new Error(`bad price ${naira}`);
	return v;
};
const prices = (p: Array<string | number>): TierPrices => p.map(k) as TierPrices;

// ---------------------------------------------------------------- networks

export interface Network {
	id: number;
	name: 'MTN' | 'GLO' | 'AIRTEL' | '9MOBILE';
	prefixes: string[];
}

/** Default family IDs: MTN 1, GLO 2, 9MOBILE 3, AIRTEL 4. Listed in the order /api/get/network/ prints them. */
export const NETWORKS: Network[] = [
	{
		id: 1,
		name: 'MTN',
		prefixes: [
			'0803',
			'0806',
			'0703',
			'0706',
			'0813',
			'0816',
			'0810',
			'0814',
			'0903',
			'0906',
			'0913',
			'0916',
			'0704',
			'07025',
			'07026',
		],
	},
	{ id: 2, name: 'GLO', prefixes: ['0805', '0807', '0705', '0815', '0811', '0905', '0915'] },
	{ id: 4, name: 'AIRTEL', prefixes: ['0802', '0808', '0708', '0812', '0701', '0902', '0901', '0904', '0907', '0912'] },
	{ id: 3, name: '9MOBILE', prefixes: ['0809', '0818', '0817', '0909', '0908'] },
];
export const networkById = new Map(NETWORKS.map((n) => [n.id, n]));

// ---------------------------------------------------------------- data plans

export type PlanType = 'SME' | 'GIFTING' | 'CORPORATE GIFTING' | 'AWOOF' | 'DATA SHARE';

export interface DataPlan {
	id: number;
	networkId: number;
	size: number;
	volume: 'MB' | 'GB';
	type: PlanType;
	validity: string;
	/** Smart Earner, Affilliate, TopUser, API. Smart Earner prices are whole naira (family `plan_amount` is an int). */
	price: TierPrices;
}

type PlanRow = [number, number, number, 'MB' | 'GB', PlanType, string, number, number, number, number | string];
const NA = '30 days (NOT AVAILABLE)';
// Seed data, one row a plan: alike in shape by nature (kept on purpose, docs/contributing.md).
// prettier-ignore
const PLAN_ROWS: PlanRow[] = [
  // id, net, size, vol, type, validity, SmartEarner, Affilliate, TopUser, API
  [1, 1, 500, 'MB', 'SME', '30 days', 150, 140, 135, 130],
  [2, 1, 1, 'GB', 'SME', '30 days', 280, 265, 258, 250],
  [3, 1, 2, 'GB', 'SME', '30 days', 560, 530, 515, 500],
  [4, 1, 5, 'GB', 'SME', '30 days', 1400, 1325, 1290, 1250],
  [5, 1, 1, 'GB', 'GIFTING', '30 days', 350, 330, 320, '310.50'],
  [6, 1, 1, 'GB', 'CORPORATE GIFTING', '30 days', 290, 275, 268, '262.50'],
  [7, 1, 1, 'GB', 'AWOOF', '1 day', 250, 235, 228, 220],
  [8, 1, 1, 'GB', 'DATA SHARE', '30 days', 270, 255, 250, 245],
  [9, 1, 10, 'GB', 'SME', NA, 2800, 2650, 2580, 2500],
  [10, 2, 1, 'GB', 'CORPORATE GIFTING', '30 days', 270, 255, 248, 240],
  [11, 2, 2, 'GB', 'CORPORATE GIFTING', '30 days', 540, 510, 496, 480],
  [12, 2, 1.35, 'GB', 'GIFTING', '14 days', 500, 480, 470, 460],
  [13, 2, 2.9, 'GB', 'GIFTING', '30 days', 1000, 960, 940, 920],
  [14, 2, 1, 'GB', 'AWOOF', '1 day', 230, 220, 215, '205.50'],
  [15, 2, 1, 'GB', 'DATA SHARE', '30 days', 260, 250, 245, 238],
  [16, 2, 500, 'MB', 'SME', '30 days', 140, 132, 128, 125],
  [17, 2, 5, 'GB', 'CORPORATE GIFTING', NA, 1350, 1280, 1240, 1200],
  [18, 3, 500, 'MB', 'SME', '30 days', 130, 122, 118, 115],
  [19, 3, 1, 'GB', 'SME', '30 days', 260, 245, 238, 230],
  [20, 3, 1.5, 'GB', 'GIFTING', '30 days', 1000, 960, 940, 920],
  [21, 3, 1, 'GB', 'CORPORATE GIFTING', '30 days', 250, 238, 232, 225],
  [22, 3, 2, 'GB', 'CORPORATE GIFTING', '30 days', 500, 476, 464, 450],
  [23, 3, 1, 'GB', 'AWOOF', '1 day', 220, 210, 205, 198],
  [24, 3, 1, 'GB', 'DATA SHARE', '30 days', 255, 243, 237, 230],
  [25, 3, 3, 'GB', 'SME', NA, 780, 740, 720, 690],
  [26, 4, 500, 'MB', 'CORPORATE GIFTING', '30 days', 150, 142, 138, 132],
  [27, 4, 1, 'GB', 'CORPORATE GIFTING', '30 days', 290, 275, 268, 260],
  [28, 4, 2, 'GB', 'CORPORATE GIFTING', '30 days', 580, 550, 536, 520],
  [29, 4, 1.5, 'GB', 'GIFTING', '30 days', 1000, 960, 940, 920],
  [30, 4, 1, 'GB', 'SME', '7 days', 300, 285, 278, 270],
  [31, 4, 1, 'GB', 'AWOOF', '2 days', 240, 228, 222, '214.50'],
  [32, 4, 1, 'GB', 'DATA SHARE', '30 days', 275, 262, 256, 248],
  [33, 4, 10, 'GB', 'GIFTING', NA, 4000, 3850, 3780, 3700],
];

export const DATA_PLANS: DataPlan[] = PLAN_ROWS.map(([id, networkId, size, volume, type, validity, ...p]) => ({
	id,
	networkId,
	size,
	volume,
	type,
	validity,
	price: prices(p),
}));
export const planById = new Map(DATA_PLANS.map((p) => [p.id, p]));

export const planAvailable = (p: DataPlan): boolean => !p.validity.includes('NOT AVAILABLE');
/** "1.0GB", "500.0MB", "1.35GB": Python's str(float) + volume, as the family prints plan_name. */
export const planName = (p: DataPlan): string =>
	`${Number.isInteger(p.size) ? p.size.toFixed(1) : String(p.size)}${p.volume}`;

// ---------------------------------------------------------------- cable

export interface Cable {
	id: number;
	name: 'GOTV' | 'DSTV' | 'STARTIME';
}
export const CABLES: Cable[] = [
	{ id: 1, name: 'GOTV' },
	{ id: 2, name: 'DSTV' },
	{ id: 3, name: 'STARTIME' },
];
export const cableById = new Map(CABLES.map((c) => [c.id, c]));

export interface CablePlan {
	id: number;
	cableId: number;
	name: string;
	price: TierPrices;
}
// prettier-ignore
export const CABLE_PLANS: CablePlan[] = ([
  [1, 1, 'GOtv Smallie', 1575, 1570, 1565, 1560],
  [2, 1, 'GOtv Jinja', 3300, 3290, 3285, 3280],
  [3, 1, 'GOtv Jolli', 4850, 4840, 4830, 4820],
  [4, 1, 'GOtv Max', 7200, 7185, 7175, 7160],
  [5, 2, 'DStv Padi', 3600, 3590, 3585, 3580],
  [6, 2, 'DStv Yanga', 5100, 5090, 5080, 5070],
  [7, 2, 'DStv Confam', 9300, 9280, 9270, 9250],
  [8, 2, 'DStv Compact', 15700, 15680, 15660, 15640],
  [9, 3, 'Nova', 1900, 1895, 1890, 1885],
  [10, 3, 'Basic', 3700, 3690, 3685, 3680],
  [11, 3, 'Smart', 4700, 4690, 4685, 4680],
  [12, 3, 'Classic', 5500, 5490, 5480, 5470],
] as Array<[number, number, string, number, number, number, number]>)
  .map(([id, cableId, name, ...p]) => ({ id, cableId, name, price: prices(p) }));
export const cablePlanById = new Map(CABLE_PLANS.map((p) => [p.id, p]));

/** Name → cable; the family also accepts STARTIMES. */
export function cableByName(name: string): Cable | undefined {
	const n = name.trim().toUpperCase();
	return CABLES.find((c) => c.name === n || (c.name === 'STARTIME' && n === 'STARTIMES'));
}

// ---------------------------------------------------------------- electricity

export interface Disco {
	id: number;
	name: string;
	pId: string;
	commission: number;
}
export const DISCOS: Disco[] = [
	'Ikeja',
	'Eko',
	'Abuja',
	'Kano',
	'Enugu',
	'Port Harcourt',
	'Ibadan',
	'Kaduna',
	'Jos',
	'Benin',
	'Yola',
	'Aba',
].map((city, i) => ({
	id: i + 1,
	name: `${city} Electric`,
	pId: `${city.toLowerCase().replace(' ', '-')}-electric`,
	commission: 1 + (i % 3) * 0.5,
}));
export const discoById = new Map(DISCOS.map((d) => [d.id, d]));
export function discoByNameOrId(v: string): Disco | undefined {
	if (/^\d+$/.test(v)) return discoById.get(Number(v));
	const n = v.trim().toLowerCase();
	return DISCOS.find((d) => d.name.toLowerCase() === n || d.pId === n);
}
export const MIN_BILL_KOBO = 500_00;

// ---------------------------------------------------------------- exams

export const EXAMS: Array<{ name: 'WAEC' | 'NECO' | 'NABTEB'; price: TierPrices }> = [
	{ name: 'WAEC', price: prices([3500, 3450, 3400, 3300]) },
	{ name: 'NECO', price: prices([1250, 1220, 1200, 1150]) },
	{ name: 'NABTEB', price: prices([1000, 980, 960, 900]) },
];
export const MAX_EPIN_QTY = 5;

// ---------------------------------------------------------------- airtime

export const AIRTIME_TYPES = ['VTU', 'Share and Sell', 'awuf4U'] as const;
export type AirtimeType = (typeof AIRTIME_TYPES)[number];
/** API-tier percent of face value charged; other tiers pay more (TIER_PERCENT_EXTRA, in basis points). */
const AIRTIME_API: Record<string, { vtu: string; sns: string }> = {
	MTN: { vtu: '98', sns: '97' },
	GLO: { vtu: '97.5', sns: '96' },
	AIRTEL: { vtu: '98', sns: '97' },
	'9MOBILE': { vtu: '96.5', sns: '95' },
};
const TIER_PERCENT_EXTRA: TierPrices = [150, 100, 50, 0];

/**
 * Percent in basis points (9750 = 97.5%) charged to `tier` for `type` airtime. awuf4U is charged at the VTU percent.
 */
export function airtimePercentBp(network: string, type: AirtimeType, tier: Tier): number {
	const row = Object.hasOwn(AIRTIME_API, network) ? AIRTIME_API[network] : undefined;
	if (!row) throw new Error(`no airtime rates for network ${network}`);
	const base = percentToBp(type === 'Share and Sell' ? row.sns : row.vtu);
	return Math.min(10000, base + TIER_PERCENT_EXTRA[tier]);
}
const MIN_AIRTIME: Record<AirtimeType, number> = { VTU: 50_00, 'Share and Sell': 100_00, awuf4U: 50_00 };
/** Minimum face value per airtime type; throws on anything that is not one (never an inherited property). */
export function minAirtimeKobo(type: AirtimeType): number {
	if (!Object.hasOwn(MIN_AIRTIME, type)) throw new Error(`not an airtime type: ${String(type)}`);
	return MIN_AIRTIME[type];
}

// ---------------------------------------------------------------- recharge cards

export interface RechargeDenom {
	id: number;
	networkId: number;
	faceKobo: number;
	price: TierPrices;
}
const FACES = [100, 200, 500, 1000];
/**
 * ids: MTN 1-4, GLO 5-8, 9MOBILE 9-12, AIRTEL 13-16 (face ₦100, ₦200, ₦500, ₦1000). Tiers pay 100/99/98.5/98 %.
 */
export const RECHARGE_DENOMS: RechargeDenom[] = [1, 2, 3, 4].flatMap((networkId) =>
	FACES.map((face, i) => ({
		id: (networkId - 1) * 4 + i + 1,
		networkId,
		faceKobo: face * 100,
		price: [10000, 9900, 9850, 9800].map((bp) => (face * 100 * bp) / 10000) as TierPrices,
	})),
);
export const denomById = new Map(RECHARGE_DENOMS.map((d) => [d.id, d]));
export const MAX_RECHARGE_QTY = 39;
export const LOAD_CODES = new Map<string, string>([
	['MTN', '*555*PIN#'],
	['GLO', '*123*PIN#'],
	['AIRTEL', '*126*PIN#'],
	['9MOBILE', '*222*PIN#'],
]);

// ---------------------------------------------------------------- bulk SMS

/** Seed dialect: per-tier rates per number per page. The family dialect hard-codes FAMILY_SMS_RATES. */
export const SMS_RATES: Array<{ rate: number; dnd: number }> = [
	{ rate: k('2.00'), dnd: k('4.00') },
	{ rate: k('1.95'), dnd: k('3.80') },
	{ rate: k('1.90'), dnd: k('3.70') },
	{ rate: k('1.80'), dnd: k('3.50') },
];
export const FAMILY_SMS_RATES = { rate: k('1.80'), dnd: k('3.50') };
export const SMS_MAX_CHARS = 905;
/** Page boundaries of the family (not a plain 160 split). */
export function smsPages(len: number): number {
	const limits = [160, 304, 454, 605, 755, 905];
	const i = limits.findIndex((l) => len <= l);
	return i === -1 ? 6 : i + 1;
}

// ---------------------------------------------------------------- fixtures

/** Deterministic 32-bit hash (FNV-1a) so generated names are stable for a number. */
function hash(s: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
	return h;
}
const FIRST = [
	'Chinedu',
	'Aisha',
	'Tunde',
	'Ngozi',
	'Emeka',
	'Fatima',
	'Segun',
	'Halima',
	'Ifeanyi',
	'Zainab',
	'Kunle',
	'Blessing',
];
const LAST = [
	'Okonkwo',
	'Abubakar',
	'Adeyemi',
	'Eze',
	'Balogun',
	'Danjuma',
	'Nwosu',
	'Olawale',
	'Ibrahim',
	'Okafor',
	'Usman',
	'Adebayo',
];
const STREETS = ['Allen Avenue', 'Awolowo Road', 'Ahmadu Bello Way', 'Zik Avenue', 'Ring Road', 'Aminu Kano Crescent'];

export interface Person {
	first: string;
	middle: string;
	last: string;
	phone: string;
}
function personFor(num: string): Person {
	const h = hash(num);
	return {
		first: FIRST[h % FIRST.length],
		middle: FIRST[(h >>> 8) % FIRST.length],
		last: LAST[(h >>> 16) % LAST.length],
		phone: `080${String(h % 100000000).padStart(8, '0')}`,
	};
}

/** Numbers ending in 0000 are "not found" for every validator; all the others are found. */
const notFound = (n: string): boolean => n.endsWith('0000');

export const FIXTURES = {
	iuc: { GOTV: '7012345678', DSTV: '7023456789', STARTIME: '02134567890', invalid: '7010000000' },
	meter: { prepaid: '45012345678', postpaid: '62012345678', invalid: '45010000000' },
	bvn: { valid: '22212345678', invalid: '22210000000' },
	nin: { valid: '12345678901', invalid: '12345670000' },
} as const;

const NAMED_PEOPLE: Record<string, Person> = {
	[FIXTURES.iuc.GOTV]: { first: 'Adebayo', middle: '', last: 'Oluwaseun', phone: '08031234567' },
	[FIXTURES.iuc.DSTV]: { first: 'Chioma', middle: '', last: 'Okafor', phone: '08051234567' },
	[FIXTURES.iuc.STARTIME]: { first: 'Ibrahim', middle: '', last: 'Musa', phone: '08021234567' },
	[FIXTURES.meter.prepaid]: { first: 'Bola', middle: '', last: 'Ahmed', phone: '08061234567' },
	[FIXTURES.meter.postpaid]: { first: 'Ngozi', middle: '', last: 'Eze', phone: '08071234567' },
	[FIXTURES.bvn.valid]: { first: 'Olumide', middle: 'Adeyemi', last: 'Bankole', phone: '08031112222' },
	[FIXTURES.nin.valid]: { first: 'Amina', middle: 'Bello', last: 'Yusuf', phone: '08093334444' },
};
const person = (n: string): Person => (Object.hasOwn(NAMED_PEOPLE, n) ? NAMED_PEOPLE[n] : personFor(n));
const upperName = (p: Person): string => `${p.first} ${p.last}`.toUpperCase();

/** IUC/smartcard: 10–11 digits; not-found numbers give the family's INVALID name. */
export function lookupIuc(card: string): { invalid: boolean; name: string } {
	if (!/^\d{10,11}$/.test(card) || notFound(card)) return { invalid: true, name: 'INVALID IUC/SMARTCARD' };
	return { invalid: false, name: upperName(person(card)) };
}

export function lookupMeter(meter: string): { invalid: boolean; name: string; address: string } {
	if (!/^\d{10,13}$/.test(meter) || notFound(meter))
		return { invalid: true, name: 'INVALID METER NUMBER', address: '' };
	const h = hash(meter);
	return { invalid: false, name: upperName(person(meter)), address: `${(h % 90) + 1} ${STREETS[h % STREETS.length]}` };
}

/** BVN/NIN: 11 digits (checked by the caller); null when not found. */
export function lookupIdentity(num: string): Person | null {
	return notFound(num) ? null : person(num);
}
