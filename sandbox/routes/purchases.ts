/**
 * The eight purchase POSTs (data coupons at the build's route). Each: DRF-style field checks → the family's business
 * rules (same texts) → wallet check → state.purchase() (debit + record + ledger) → 201 record.
 */
import type { FastifyInstance } from 'fastify';
import { COUPON_PATHS, couponPath, senderMax } from '../builds';
import {
	AIRTIME_TYPES,
	airtimePercentBp,
	cableById,
	cablePlanById,
	denomById,
	discoById,
	EXAMS,
	FAMILY_SMS_RATES,
	lookupIuc,
	lookupMeter,
	MAX_EPIN_QTY,
	MAX_RECHARGE_QTY,
	MIN_BILL_KOBO,
	minAirtimeKobo,
	type Network,
	networkById,
	NETWORKS,
	planAvailable,
	planById,
	SMS_MAX_CHARS,
	SMS_RATES,
	smsPages,
} from '../catalog';
import { Form } from '../form';
import {
	apiRoute,
	type Ctx,
	fieldErrors,
	html500,
	notFoundPage,
	type Out,
	type Runtime,
	ruleError,
	viewError,
} from '../http';
import { applyPercent, nairaShort } from '../money';
import { DATA_RECORD_SCHEMA, moneyOf, renderTxn } from '../render';
import type { Product, TxnDetail } from '../state';

/** Funding and balance rules shared by every purchase; null when the wallet can pay. */
function walletError(c: Ctx, kobo: number, insufficient: (balance: string) => string, asString = false): Out | null {
	const fail = asString ? viewError : ruleError;
	if (!c.user.funded) return fail('No Wallet Funding Record Found, Contact admin to fund your wallet');
	if (c.user.balanceKobo < kobo) return fail(insufficient(moneyOf(c.dialect)(c.user.balanceKobo)));
	return null;
}

/** Local 11-digit form only; the prefix must match the network unless the number is ported. */
function phoneError(phone: string, network: Network, ported: boolean): Out | null {
	if (!/^0\d{10}$/.test(phone)) return ruleError(`invalid mobile number ${phone}`);
	if (!ported && !hasPrefix(phone, network.prefixes))
		return ruleError(`Please check entered number is not ${network.name} user`);
	return null;
}

// (a loop, not prefixes.some(closure): no function made per purchase)
function hasPrefix(phone: string, prefixes: readonly string[]): boolean {
	for (const p of prefixes) if (phone.startsWith(p)) return true;
	return false;
}

/** The answer as it is (most products). */
const asIs = (o: Out): Out => o;

function buy(
	c: Ctx,
	product: Product,
	kobo: number,
	recipient: string,
	d: TxnDetail,
	status = c.forceStatus,
	shape: (o: Out) => Out = asIs,
): Out {
	if (c.state.config.customer_ref)
		d.customerRef = typeof c.body.customer_ref === 'string' ? c.body.customer_ref.slice(0, 64) : '';
	const tag = c.req.headers['x-sandbox-tag'];
	if (typeof tag === 'string') d.tag = tag.slice(0, 100);
	if (!c.slowMs) return shape(commitPurchase(c, product, kobo, recipient, d, status));
	const commit = (): Out => shape(commitPurchase(c, product, kobo, recipient, d, status));
	// slow vendor: debit and record when it finishes; the wallet may have been spent meanwhile
	return {
		status: 0,
		deferred: {
			ms: c.slowMs,
			commit: () =>
				c.user.balanceKobo < kobo
					? ruleError(`insufficient balance, your current balance N${moneyOf(c.dialect)(c.user.balanceKobo)}`)
					: commit(),
		},
	};
}

/** Debit and record (state.purchase), answered with the record. */
function commitPurchase(
	c: Ctx,
	product: Product,
	kobo: number,
	recipient: string,
	d: TxnDetail,
	status: Ctx['forceStatus'],
): Out {
	const txn = c.state.purchase(c.user, product, kobo, recipient, d, status);
	return { status: 201, body: renderTxn(txn, c.dialect), txn };
}

const dataShort = (b: string) =>
	`You can't purchase this plan due to insufficient balance N${b} Kindly Fund your Wallet`;

function data(c: Ctx): Out {
	const f = new Form(c.body);
	const network = f.pk('network', networkById);
	const plan = f.pk('plan', planById);
	const phone = f.str('mobile_number');
	const ported = f.bool('Ported_number');
	if (!f.ok) return fieldErrors(f);
	if (plan!.networkId !== network!.id)
		return ruleError(`invalid plan id ${plan!.id} for ${network!.name}, check here for available plan list`);
	if (!planAvailable(plan!)) return ruleError('Data not available on this network currently');
	const price = plan!.price[c.user.tier];
	const err = phoneError(phone!, network!, ported!) ?? walletError(c, price, dataShort);
	return err ?? buy(c, 'data', price, phone!, { networkId: network!.id, planId: plan!.id, ported });
}

function topup(c: Ctx): Out {
	// The view reads airtime_type straight from request.data: a missing key is a KeyError → 500.
	if (c.body.airtime_type === undefined) return html500();
	const f = new Form(c.body);
	const network = f.pk('network', networkById);
	const amount = f.money('amount');
	const phone = f.str('mobile_number');
	const ported = f.bool('Ported_number');
	const type = f.choice('airtime_type', AIRTIME_TYPES);
	if (!f.ok) return fieldErrors(f);
	const min = minAirtimeKobo(type!);
	if (amount! < min) return ruleError(`minimum airtime topup is N${nairaShort(min)}`);
	const charge = applyPercent(amount!, airtimePercentBp(network!.name, type!, c.user.tier));
	const err =
		phoneError(phone!, network!, ported!) ??
		walletError(c, charge, (b) => `You can't topup due to insufficient balance N${b}`);
	return (
		err ?? buy(c, 'airtime', charge, phone!, { networkId: network!.id, ported, airtimeType: type, faceKobo: amount })
	);
}

function cablesub(c: Ctx): Out {
	// The seed document names the plan field `plan`; accept it there as an alias of `cableplan`.
	const body = c.dialect === 'seed' && c.body.cableplan === undefined ? { ...c.body, cableplan: c.body.plan } : c.body;
	const f = new Form(body);
	const cable = f.pk('cablename', cableById);
	const plan = f.pk('cableplan', cablePlanById);
	const card = f.digits('smart_card_number');
	if (!f.ok) return fieldErrors(f);
	if (plan!.cableId !== cable!.id)
		return ruleError(`invalid plan id ${plan!.id} for ${cable!.name}, check here for available plan list`);
	const who = lookupIuc(card!);
	if (who.invalid) return ruleError(who.name);
	const price = plan!.price[c.user.tier];
	const err = walletError(c, price, (b) => `You can't topup due to insufficient balance N${b}`);
	return err ?? buy(c, 'cable', price, card!, { cableId: cable!.id, cablePlanId: plan!.id, customerName: who.name });
}

function billpayment(c: Ctx): Out {
	const f = new Form(c.body);
	const disco = f.pk('disco_name', discoById);
	const amount = f.money('amount');
	const meter = f.digits('meter_number');
	const meterType = f.choice('MeterType', ['Prepaid', 'Postpaid'] as const, {
		'1': 'Prepaid',
		'2': 'Postpaid',
		prepaid: 'Prepaid',
		postpaid: 'Postpaid',
		PREPAID: 'Prepaid',
		POSTPAID: 'Postpaid',
	});
	const phone = f.str('Customer_Phone', { required: false });
	if (!f.ok) return fieldErrors(f);
	if (amount! < MIN_BILL_KOBO) return ruleError('BELOW MINIMUM AMOUNT ALLOWED (N500)');
	const who = lookupMeter(meter!);
	if (who.invalid) return ruleError(who.name);
	const err = walletError(c, amount!, (b) => `insufficient balance, your current balance N${b}`);
	return (
		err ??
		buy(c, 'electricity', amount!, meter!, {
			discoId: disco!.id,
			meterType,
			customerPhone: phone ?? '',
			faceKobo: amount,
			customerName: typeof c.body.customer_name === 'string' ? c.body.customer_name : who.name,
			customerAddress: typeof c.body.customer_address === 'string' ? c.body.customer_address : who.address,
		})
	);
}

function epin(c: Ctx): Out {
	const f = new Form(c.body);
	const exam = f.choice(
		'exam_name',
		EXAMS.map((e) => e.name),
	);
	const qty = f.int('quantity', { min: 1 });
	if (!f.ok) return fieldErrors(f);
	if (qty! > MAX_EPIN_QTY) return ruleError(` MAXIMUM of ${MAX_EPIN_QTY} quantity per transaction`);
	const price = EXAMS.find((e) => e.name === exam)!.price[c.user.tier] * qty!;
	const err = walletError(
		c,
		price,
		(b) => `You can't purchase this due to insufficient balance N${b} Kindly Fund your Wallet`,
	);
	return err ?? buy(c, 'exam_pin', price, exam!, { exam, quantity: qty });
}

function rechargepin(c: Ctx): Out {
	const f = new Form(c.body);
	const network = f.pk('network', networkById);
	const denom = f.pk('network_amount', denomById);
	const qty = f.int('quantity', { min: 1 });
	const name = f.str('name_on_card', { max: 50 });
	if (!f.ok) return fieldErrors(f);
	if (qty! > MAX_RECHARGE_QTY) return ruleError(` MAXIMUM of ${MAX_RECHARGE_QTY} quantity per transaction`);
	if (denom!.networkId !== network!.id) return ruleError(`invalid network_amount id ${denom!.id} for ${network!.name}`);
	const price = denom!.price[c.user.tier] * qty!;
	const err = walletError(
		c,
		price,
		(b) => `You can't purchase this due to insufficient balance N${b} Kindly Fund your Wallet`,
	);
	return (
		err ??
		buy(c, 'recharge_card', price, name!, {
			networkId: network!.id,
			denomId: denom!.id,
			quantity: qty,
			nameOnCard: name,
		})
	);
}

/**
 * Data coupons: the network by name (not id, unlike /api/data/), a data plan id, a quantity and the name
 * printed on the cards; priced as the plan per coupon. Served at the build's route only (builds.ts).
 */
function datapin(c: Ctx, path: string): Out {
	if (path !== couponPath(c.state)) return notFoundPage();
	const f = new Form(c.body);
	const name = f.str('network');
	const plan = f.pk('data_plan', planById);
	const qty = f.int('quantity', { min: 1 });
	const card = f.str('name_on_card', { max: 50 });
	if (!f.ok) return fieldErrors(f);
	const network = NETWORKS.find((n) => n.name === name);
	if (!network) return { status: 400, body: { network: [`Object with name=${name} does not exist.`] } };
	if (qty! > MAX_RECHARGE_QTY) return ruleError(` MAXIMUM of ${MAX_RECHARGE_QTY} quantity per transaction`);
	if (plan!.networkId !== network.id) return ruleError(`invalid data_plan id ${plan!.id} for ${network.name}`);
	if (!planAvailable(plan!)) return ruleError('Data not available on this network currently');
	const price = plan!.price[c.user.tier] * qty!;
	const err = walletError(
		c,
		price,
		(b) => `You can't purchase this due to insufficient balance N${b} Kindly Fund your Wallet`,
	);
	const d = { networkId: network.id, planId: plan!.id, quantity: qty, nameOnCard: card };
	return err ?? buy(c, 'data_coupon', price, card!, d);
}

/** Valid: 11 digits starting 0 (rewritten to 234…) or 13 digits starting 234. No trimming, like the family. */
function splitRecipients(list: string): { valid: string[]; invalid: number } {
	const valid: string[] = [];
	let invalid = 0;
	for (const n of list.split(',')) {
		if (/^0\d{10}$/.test(n)) valid.push(`234${n.slice(1)}`);
		else if (/^234\d{10}$/.test(n)) valid.push(n);
		else invalid++;
	}
	return { valid, invalid };
}

function sendsms(c: Ctx): Out {
	const f = new Form(c.body);
	const sender = f.str('sender', { max: senderMax(c.state) }); // 11; 12 on builds that store what the column holds
	const to = f.str('recetipient');
	const message = f.str('message');
	const dnd = f.bool('DND', false) ?? false;
	if (!f.ok) return fieldErrors(f);
	const { valid, invalid } = splitRecipients(to!);
	if (valid.length === 0) return viewError('No valid Number found');
	// Characters as the family's Python counts them (len = code points): an emoji is one, not two
	// UTF-16 units; the truncation to 905 cuts between characters, never inside one.
	const chars = [...message!];
	const text = chars.slice(0, SMS_MAX_CHARS).join('');
	const pages = smsPages(Math.min(chars.length, SMS_MAX_CHARS));
	const rates = c.dialect === 'family' ? FAMILY_SMS_RATES : SMS_RATES[c.user.tier];
	const rateKobo = dnd ? rates.dnd : rates.rate;
	const charge = valid.length * rateKobo * pages;
	const err = walletError(c, charge, (b) => `insufficient balance, your current balance N${b}`, true);
	if (err) return err;
	// Bulk SMS is debited after the upstream said "sent": never `processing`.
	const family = (out: Out): Out =>
		c.dialect === 'family' ? { status: 200, body: { error: 'Message succesfully sent ' }, txn: out.txn } : out;
	return buy(
		c,
		'sms',
		charge,
		valid.join(','),
		{ sender, to: valid, message: text, pages, rateKobo, invalid, dnd },
		'successful',
		family,
	);
}

export function purchaseRoutes(app: FastifyInstance, rt: Runtime): void {
	apiRoute(app, rt, 'POST', '/api/data/', data, { 201: DATA_RECORD_SCHEMA });
	apiRoute(app, rt, 'POST', '/api/topup/', topup);
	apiRoute(app, rt, 'POST', '/api/cablesub/', cablesub);
	apiRoute(app, rt, 'POST', '/api/billpayment/', billpayment);
	apiRoute(app, rt, 'POST', '/api/epin/', epin);
	apiRoute(app, rt, 'POST', '/api/rechargepin/', rechargepin);
	apiRoute(app, rt, 'POST', '/api/sendsms/', sendsms);
	for (const path of COUPON_PATHS) apiRoute(app, rt, 'POST', path, (c) => datapin(c, path));
}
