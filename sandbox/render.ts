/**
 * Wire shapes per dialect. "seed" follows the seed document (flat profile, tier-priced
 * two-decimal strings); "family" follows the real MSORG sites (nested profile with leaks,
 * raw plan rows, Python-float strings, ₦ prefixes). Catalogue payloads are static per
 * (dialect, tier), so they are serialised once and cached as strings.
 */
import {
	AIRTIME_TYPES,
	airtimePercentBp,
	CABLE_PLANS,
	CABLES,
	DATA_PLANS,
	type DataPlan,
	denomById,
	DISCOS,
	discoById,
	EXAMS,
	LOAD_CODES,
	networkById,
	NETWORKS,
	planById,
	planName,
	RECHARGE_DENOMS,
	SMS_RATES,
	type Tier,
} from './catalog';
import { bpToPercent, naira2, nairaNumber, nairaShort, pyFloat } from './money';
import type { Dialect, Product, Txn, TxnDetail, User } from './state';

type Money = (kobo: number) => string;
export const moneyOf = (dialect: Dialect): Money => (dialect === 'seed' ? naira2 : pyFloat);

// ---------------------------------------------------------------- catalogue payloads

const cache = new Map<string, string>();
function cached(key: string, build: () => unknown): string {
	let s = cache.get(key);
	if (s === undefined) cache.set(key, (s = JSON.stringify(build())));
	return s;
}

function seedPlan(p: DataPlan, tier: Tier) {
	return {
		id: p.id,
		plan_size: Number.isInteger(p.size) ? p.size.toFixed(1) : String(p.size),
		plan_Volume: p.volume,
		plan_amount: naira2(p.price[tier]),
		plan_type: p.type,
		month_validate: p.validity,
	};
}

/** Family: the raw model row (`.values()`), base price in plan_amount and every tier's column. */
function familyPlan(p: DataPlan) {
	return {
		id: p.id,
		network_id: p.networkId,
		dataplan_id: String(p.id),
		plan_size: p.size,
		plan_Volume: p.volume,
		plan_amount: p.price[0] / 100,
		Affilliate_price: nairaNumber(p.price[1]),
		TopUser_price: nairaNumber(p.price[2]),
		api_price: nairaNumber(p.price[3]),
		plan_type: p.type,
		month_validate: p.validity,
		plan: planName(p),
	};
}

export function networkPayload(dialect: Dialect, tier: Tier): string {
	return cached(`net|${dialect}|${tier}`, () =>
		Object.fromEntries(
			NETWORKS.map((n) => [
				n.name,
				{
					network_info: { id: n.id, name: n.name },
					data_plans: DATA_PLANS.filter((p) => p.networkId === n.id).map((p) =>
						dialect === 'seed' ? seedPlan(p, tier) : familyPlan(p),
					),
				},
			]),
		),
	);
}

export function cablePayload(tier: Tier): string {
	return cached(`cable|${tier}`, () =>
		Object.fromEntries(
			CABLES.map((c) => [
				c.name,
				{
					cable_id: c.id,
					plans: CABLE_PLANS.filter((p) => p.cableId === c.id).map((p) => ({
						id: p.id,
						cablename_id: c.id,
						package: p.name,
						plan_amount: naira2(p.price[tier]),
						product_code: `${c.name.toLowerCase()}-${p.id}`,
					})),
				},
			]),
		),
	);
}

export function discoPayload(): string {
	return cached('disco', () => ({
		plans: DISCOS.map((d) => ({ id: d.id, name: d.name, p_id: d.pId, commission: d.commission })),
	}));
}

const examObject = (tier: Tier) => Object.fromEntries(EXAMS.map((e) => [e.name, { amount: naira2(e.price[tier]) }]));
export const examPayload = (tier: Tier): string => cached(`exam|${tier}`, () => examObject(tier));

const airtimeObject = (tier: Tier) =>
	Object.fromEntries(
		NETWORKS.map((n) => [
			n.name,
			{
				VTU: bpToPercent(airtimePercentBp(n.name, AIRTIME_TYPES[0], tier)),
				'Share and Sell': bpToPercent(airtimePercentBp(n.name, AIRTIME_TYPES[1], tier)),
			},
		]),
	);
export const airtimePayload = (tier: Tier): string => cached(`airtime|${tier}`, () => airtimeObject(tier));

export const smsPayload = (tier: Tier): string =>
	cached(`sms|${tier}`, () => ({ rate: naira2(SMS_RATES[tier].rate), dnd_rate: naira2(SMS_RATES[tier].dnd) }));

const rechargeObject = (tier: Tier) => {
	const out: Record<string, unknown> = {};
	for (const n of NETWORKS) out[n.name.toLowerCase()] = 500; // cards in stock, as the family reports it
	for (const n of NETWORKS) {
		out[`${n.name.toLowerCase()}_pin`] = RECHARGE_DENOMS.filter((d) => d.networkId === n.id).map((d) => ({
			id: d.id,
			network_name: n.name,
			amount: nairaShort(d.faceKobo),
			amount_to_pay: naira2(d.price[tier]),
		}));
	}
	return out;
};
export const rechargePayload = (tier: Tier): string => cached(`recharge|${tier}`, () => rechargeObject(tier));

/** The legacy catalogue keys that /api/user/ carries in both dialects. */
export function legacyCatalogue(dialect: Dialect, tier: Tier) {
	const m = moneyOf(dialect);
	const kinds: Record<string, string> = {
		SME: 'SME',
		GIFTING: 'GIFTING',
		CORPORATE: 'CORPORATE GIFTING',
		AWOOF: 'AWOOF',
		DATA_SHARE: 'DATA SHARE',
	};
	const Dataplans = Object.fromEntries(
		NETWORKS.map((n) => {
			const rows = DATA_PLANS.filter((p) => p.networkId === n.id).map((p) => ({
				id: p.id,
				dataplan_id: String(p.id),
				network: n.id,
				plan_type: p.type,
				plan_network: n.name,
				month_validate: p.validity,
				plan: planName(p),
				plan_amount: m(p.price[tier]),
			}));
			const byKind = Object.fromEntries(
				Object.entries(kinds).map(([key, type]) => [key, rows.filter((r) => r.plan_type === type)]),
			);
			return [`${n.name}_PLAN`, { ALL: rows, ...byKind }];
		}),
	);
	const Cableplan: Record<string, unknown> = {};
	for (const c of CABLES) {
		Cableplan[`${c.name}PLAN`] = CABLE_PLANS.filter((p) => p.cableId === c.id).map((p) => ({
			id: p.id,
			cableplan_id: String(p.id),
			cable: c.name,
			package: p.name,
			plan_amount: m(p.price[tier]),
		}));
	}
	Cableplan.cablename = CABLES.map((c) => ({ id: c.id, name: c.name }));
	return {
		Dataplans,
		Cableplan,
		Exam: examObject(tier),
		topuppercentage: airtimeObject(tier),
		recharge: rechargeObject(tier),
		notification: { message: 'Welcome to the VTU sandbox. Nothing here costs real money.' },
		Admin_number: '08030000001',
		support_phone_number: '08030000001',
		banners: [],
	};
}

/** The per-user part of GET /api/user/, as JSON (small: built per request). */
function userHead(dialect: Dialect, u: User): string {
	if (dialect === 'seed') {
		return JSON.stringify({
			username: u.username,
			FullName: u.fullName,
			Account_Balance: naira2(u.balanceKobo),
			user_type: u.userType,
			Phone: u.phone,
			email: u.email,
		});
	}
	const user = JSON.stringify({
		id: u.id,
		email: u.email,
		username: u.username,
		FullName: u.fullName,
		pin: '1234',
		Phone: u.phone,
		Address: u.address,
		Account_Balance: nairaNumber(u.balanceKobo),
		wallet_balance: naira2(u.balanceKobo),
		bonus_balance: '0.00',
		user_type: u.userType,
		password: u.passwordHash,
		referer_username: '',
		email_verify: true,
		reservedaccountNumber: '',
		reservedbankName: '',
		bank_accounts: { accounts: [] },
	});
	// Python's float: a whole-number balance is sent as 986839.0, never as an integer
	return user.replace(/"Account_Balance":(-?\d+)(?=[,}])/, '"Account_Balance":$1.0');
}

/** What the per-user part of GET /api/user/ is made of: a change in any of these is a new answer. */
interface UserSnapshot {
	dialect: Dialect;
	balanceKobo: number;
	userType: User['userType'];
	username: string;
	fullName: string;
	email: string;
	phone: string;
	address: string;
	passwordHash: string;
	id: number;
	payload: Buffer;
}

/** Each user's last answer, reused while its per-user part is unchanged (most reads come between purchases). */
const lastUserPayload = new WeakMap<User, UserSnapshot>();

// Compared field by field, not by serialising the head per request: a read between purchases costs no JSON
// and no allocation (the tier follows userType).
const unchanged = (s: UserSnapshot, dialect: Dialect, u: User): boolean =>
	s.dialect === dialect &&
	s.balanceKobo === u.balanceKobo &&
	s.userType === u.userType &&
	s.username === u.username &&
	s.fullName === u.fullName &&
	s.email === u.email &&
	s.phone === u.phone &&
	s.address === u.address &&
	s.passwordHash === u.passwordHash &&
	s.id === u.id;

/**
 * GET /api/user/, encoded: the per-user part is serialised when it changes and the ~13 KB catalogue tail comes
 * from the cache; the whole answer is encoded once per change of the per-user part, not per request.
 */
export function userPayload(dialect: Dialect, u: User): Buffer {
	const last = lastUserPayload.get(u);
	if (last !== undefined && unchanged(last, dialect, u)) return last.payload;
	const head = userHead(dialect, u);
	const tail = cached(`usertail|${dialect}|${u.tier}`, () => legacyCatalogue(dialect, u.tier));
	const body = dialect === 'seed' ? `${head.slice(0, -1)},${tail.slice(1)}` : `{"user":${head},${tail.slice(1)}`;
	const payload = Buffer.from(body, 'utf8');
	const { balanceKobo, userType, username, fullName, email, phone, address, passwordHash, id } = u;
	lastUserPayload.set(u, {
		dialect,
		balanceKobo,
		userType,
		username,
		fullName,
		email,
		phone,
		address,
		passwordHash,
		id,
		payload,
	});
	return payload;
}

// ---------------------------------------------------------------- records

/** The pins of an order as the family serialises them: Django rows {model, pk, fields}. */
function pinRows(d: TxnDetail, model: string, network: string, amount: string, loadCode: (pin: string) => string) {
	return (d.cards ?? []).map((c) => ({
		model,
		pk: c.pk,
		fields: { pin: c.pin, serial: c.serial, amount, load_code: loadCode(c.pin), network, available: false },
	}));
}

export function renderTxn(t: Txn, dialect: Dialect): Record<string, unknown> {
	const out = renderRecord(t, dialect);
	if (t.d.customerRef !== undefined) out.customer_ref = t.d.customerRef;
	return out;
}

/** What every product's record shares: the wallet's money in the dialect's format, before and after. */
interface RecordContext {
	t: Txn;
	d: TxnDetail;
	dialect: Dialect;
	m: Money;
	before: string;
	after: string;
}

function renderRecord(t: Txn, dialect: Dialect): Record<string, unknown> {
	const m = moneyOf(dialect);
	return RECORDS[t.product]({ t, d: t.d, dialect, m, before: m(t.beforeKobo), after: m(t.afterKobo) });
}

/** What a record of an order of pins (recharge cards, data coupons) carries besides the product's own. */
function pinOrder({ t, d, m, before, after }: Omit<RecordContext, 'dialect'>, network: string) {
	return {
		name_on_card: d.nameOnCard,
		quantity: d.quantity,
		amount: m(t.amountKobo),
		previous_balance: before,
		after_balance: after,
		Status: t.status,
		create_date: t.createDate,
		network_name: network,
	};
}

const STR = { type: 'string' } as const;
const INT = { type: 'integer' } as const;

/**
 * JSON schema of a data record (RECORDS.data below, same keys in the same order, plus the optional customer_ref):
 * POST /api/data/ answers with it, so Fastify serialises its 201 with a compiled serializer (fast-json-stringify)
 * instead of JSON.stringify. Every value is of the type given here, so the bytes are JSON.stringify's. A key
 * added to the record but not here is still sent (additionalProperties), after the listed ones: add it here too.
 */
export const DATA_RECORD_SCHEMA = {
	type: 'object',
	properties: {
		id: INT,
		ident: STR,
		network: INT,
		plan: INT,
		mobile_number: STR,
		Ported_number: { type: 'boolean' },
		Status: STR,
		balance_before: STR,
		balance_after: STR,
		plan_network: STR,
		plan_name: STR,
		plan_amount: STR,
		create_date: STR,
		api_response: STR,
		customer_ref: STR,
	},
	additionalProperties: true,
} as const;

/** Each product's record as GET /api/<product>/<id> answers it (one entry per sandbox product). */
const RECORDS: Record<Product, (c: RecordContext) => Record<string, unknown>> = {
	data: ({ t, d, dialect, before, after }) => {
		const p = planById.get(d.planId!)!;
		return {
			id: t.id,
			ident: t.ident,
			network: d.networkId,
			plan: d.planId,
			mobile_number: t.recipient,
			Ported_number: d.ported,
			Status: t.status,
			balance_before: before,
			balance_after: after,
			plan_network: networkById.get(p.networkId)!.name,
			plan_name: planName(p),
			plan_amount: dialect === 'seed' ? naira2(t.amountKobo) : `₦${pyFloat(t.amountKobo)}`,
			create_date: t.createDate,
			api_response: d.apiResponse ?? '',
		};
	},
	airtime: ({ t, d, dialect, m, before, after }) => ({
		id: t.id,
		ident: t.ident,
		airtime_type: d.airtimeType,
		network: d.networkId,
		paid_amount: m(t.amountKobo),
		amount: m(d.faceKobo!),
		plan_amount: `${dialect === 'seed' ? 'N' : '₦'}${nairaShort(d.faceKobo!)}`,
		plan_network: networkById.get(d.networkId!)!.name,
		mobile_number: t.recipient,
		balance_before: before,
		balance_after: after,
		Status: t.status,
		create_date: t.createDate,
		Ported_number: d.ported,
	}),
	cable: ({ t, d, m, before, after }) => ({
		id: t.id,
		ident: t.ident,
		cablename: d.cableId,
		cableplan: d.cablePlanId,
		package: packageName(d.cablePlanId!),
		plan_amount: m(t.amountKobo),
		paid_amount: m(t.amountKobo),
		balance_before: before,
		balance_after: after,
		smart_card_number: t.recipient,
		Status: t.status,
		create_date: t.createDate,
		customer_name: d.customerName,
	}),
	electricity: ({ t, d, dialect, m, before, after }) => {
		const token = d.token ?? '';
		return {
			id: t.id,
			ident: t.ident,
			package: discoById.get(d.discoId!)!.name,
			disco_name: d.discoId,
			amount: m(d.faceKobo!),
			paid_amount: m(t.amountKobo),
			Customer_Phone: d.customerPhone ?? '',
			meter_number: t.recipient,
			token: dialect === 'family' && token ? `Token : ${token}` : token,
			MeterType: d.meterType,
			balance_before: before,
			balance_after: after,
			Status: t.status,
			create_date: t.createDate,
			customer_name: d.customerName,
			customer_address: d.customerAddress,
		};
	},
	exam_pin: ({ t, d, dialect, m, before, after }) => ({
		id: t.id,
		...(dialect === 'seed' ? { ident: t.ident } : {}),
		exam_name: d.exam,
		quantity: d.quantity,
		Status: t.status,
		amount: m(t.amountKobo),
		previous_balance: before,
		after_balance: after,
		create_date: t.createDate,
		data: d.raw ?? '',
		pins: d.pins ?? [],
	}),
	recharge_card: ({ t, d, m, before, after }) => {
		const denom = denomById.get(d.denomId!)!;
		const net = networkById.get(d.networkId!)!.name;
		return {
			id: t.id,
			ident: t.ident,
			network: d.networkId,
			network_amount: d.denomId,
			...pinOrder({ t, d, m, before, after }, net),
			data_pin: pinRows(d, 'vtuapp.rechargepin', net, nairaShort(denom.faceKobo), (pin) =>
				LOAD_CODES.get(net)!.replace('PIN', pin),
			),
		};
	},
	data_coupon: ({ t, d, m, before, after }) => {
		const p = planById.get(d.planId!)!;
		const net = networkById.get(p.networkId)!.name;
		return {
			id: t.id,
			ident: t.ident,
			network: net,
			data_plan: d.planId,
			plan_name: planName(p),
			...pinOrder({ t, d, m, before, after }, net),
			// a data coupon is loaded by the plan's own code, not a dial string: load_code stays empty
			data_pin: pinRows(d, 'vtuapp.datapin', net, planName(p), () => ''),
		};
	},
	sms: ({ t, d, m, before, after }) => ({
		id: t.id,
		ident: t.ident,
		sendername: d.sender,
		to: d.to!.join(','),
		message: d.message,
		page: d.pages,
		unit: m(d.rateKobo!),
		amount: m(t.amountKobo),
		total: d.to!.length,
		invalid: d.invalid,
		DND: d.dnd,
		Status: t.status,
		balance_before: before,
		balance_after: after,
		create_date: t.createDate,
	}),
};

/** GET /api/sendsms/ history entries (the family's shorter shape). */
export function renderSmsHistory(t: Txn, dialect: Dialect): Record<string, unknown> {
	const m = moneyOf(dialect);
	const d = t.d;
	return {
		id: t.id,
		total: d.to!.length,
		unit: m(d.rateKobo!),
		sendername: d.sender,
		message: d.message,
		page: d.pages,
		amount: m(t.amountKobo),
		to: d.to!.join(','),
		ident: t.ident,
		create_date: t.createDate,
		DND: d.dnd,
	};
}

const packageName = (id: number): string => CABLE_PLANS.find((p) => p.id === id)!.name;
