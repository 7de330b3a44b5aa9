import type { AmountInput, BuyOptions, Disco, PurchaseResult } from '../../types';
import type { CatalogIndex } from '../../catalog';
import { formatNaira, nairaText, parsePlainNaira } from '../../money';
import { parseMobile } from '../../input';
import {
	firstMoney,
	recordMoney,
	invalid,
	sameFaceValue,
	requireDigits,
	resolveChoice,
	recordParser,
	text,
	type ClientSettings,
	type ProductModule,
	type PurchaseEnv,
} from '../common';
import { productModule } from '../define';
import { shown } from '../../errors';
import { executePurchase } from '../../purchase';
import { learnMeterType, meterTypeFor, otherEncoding, refusedMeterType } from './meter-type';
import { ELECTRICITY_SPEC } from './spec';

/** What a caller passes to buy or quote this product (`product` names it). */
export interface ElectricityPurchase {
	product: 'electricity';
	disco: string | number;
	meter: string;
	meterType: 'prepaid' | 'postpaid';
	amount: AmountInput;
	phone?: string;
}

const { fields: F, limits: L, path: PATH } = ELECTRICITY_SPEC;

/**
 * By id, exact name or alias ("Ikeja", "IKEDC" → Ikeja Electric). A city a disco serves ("Abakaliki") is not an
 * alias: refused with the list.
 */
export function resolveDisco(idx: CatalogIndex, disco: unknown): Disco {
	return resolveChoice(idx.discos, disco, 'disco', 'an electricity company');
}

export function meterTypeOf(v: unknown): 'prepaid' | 'postpaid' {
	const s = typeof v === 'string' || typeof v === 'number' ? String(v).trim().toLowerCase() : null;
	if (s === 'prepaid' || s === '1') return 'prepaid';
	if (s === 'postpaid' || s === '2') return 'postpaid';
	throw invalid('meterType', `meterType ${shown(v)} must be "prepaid" or "postpaid".`);
}

export function checkMeter(v: unknown): string {
	return requireDigits(v, 'meter', 'meter number', L.meterDigits.min, L.meterDigits.max);
}

/** Strip "Token : ", "Token:", "TOKEN -" prefixes some upstreams add. */
export function cleanToken(t: unknown): string {
	return text(t)
		.replace(/^\s*(?:token|pin)\s*[:\-=]?\s*/i, '')
		.trim();
}

export const electricityProduct: ProductModule<ElectricityPurchase> = productModule(ELECTRICITY_SPEC, {
	hasDetail: true,
	prepare(req, idx, settings) {
		const disco = resolveDisco(idx, req.disco);
		const meter = checkMeter(req.meter);
		const mt = meterTypeOf(req.meterType);
		const kobo = parsePlainNaira(req.amount, 'amount');
		if (kobo < L.minKobo)
			throw invalid(
				'amount',
				`amount ${nairaText(kobo)} is below the electricity minimum of ${nairaText(L.minKobo)}.`,
				{
					minKobo: L.minKobo,
				},
			);
		if (kobo > L.maxKobo) {
			throw invalid(
				'amount',
				`amount ${nairaText(kobo)} is above the maximum of ${nairaText(L.maxKobo)} per token; type a smaller amount or ` +
					`split it.`,
				{ maxKobo: L.maxKobo },
			);
		}
		const phone = req.phone !== undefined && req.phone !== '' ? parseMobile(req.phone, 'phone').phone : undefined;
		const encoding = settings.meterTypeNow ?? meterTypeFor(settings.baseUrl, settings.meterType);
		const body: Record<string, unknown> = {
			[F.disco.wire]: disco.id,
			[F.amount.wire]: Number(formatNaira(kobo)),
			[F.meter.wire]: meter,
			[F.meterType.wire]:
				encoding === 'number' ? (mt === 'prepaid' ? 1 : 2) : mt === 'prepaid' ? 'Prepaid' : 'Postpaid',
		};
		if (phone) body[F.phone.wire] = phone;
		return {
			product: 'electricity',
			path: PATH,
			body,
			quote: {
				product: 'electricity',
				recipient: meter,
				amount: { kobo, naira: formatNaira(kobo) },
				description: `${nairaText(kobo)} ${disco.name} ${mt} token for meter ${meter}`,
				request: body,
			},
			match: sameFaceValue(meter, kobo),
		};
	},
	parse: recordParser('electricity', (o) => {
		const face = firstMoney(o.amount);
		const mtRaw = text(o.MeterType).toLowerCase();
		const details: Record<string, unknown> = {
			token: cleanToken(o.token),
			customerName: text(o.customer_name),
			meterType:
				mtRaw === '1' || mtRaw === 'prepaid' ? 'prepaid' : mtRaw === '2' || mtRaw === 'postpaid' ? 'postpaid' : mtRaw,
			faceValue: face,
			disco: text(o.package) || o.disco_name,
		};
		const units = o.units ?? o.unit;
		if (units !== undefined && units !== null && units !== '') details.units = text(units);
		if (o.customer_address) details.customerAddress = text(o.customer_address);
		return {
			...recordMoney(o, firstMoney(o.paid_amount), face),
			recipient: text(o.meter_number) || null,
			details,
		};
	}),
	send: (env, req, opts) => sendElectricity(env, req, opts),
});

/**
 * One POST; when the site refuses the MeterType encoding with a 400 field error (no record, nothing debited),
 * once more in the other encoding, and the accepted one is remembered for the site (meter-type.ts).
 */
async function sendElectricity(
	env: PurchaseEnv,
	req: ElectricityPurchase,
	opts: BuyOptions,
): Promise<PurchaseResult[]> {
	const { ctx } = env;
	const send = async (settings: ClientSettings) => {
		const prep = electricityProduct.prepare(req, await env.index(), settings);
		const r = await executePurchase(ctx, electricityProduct, prep, {
			request: req,
			signal: opts.signal,
			retryIfNotCharged: opts.retryIfNotCharged,
			customerRef: opts.customerRef,
		});
		return [r];
	};
	try {
		return await send(ctx.settings);
	} catch (e) {
		if (!refusedMeterType(e)) throw e;
	}
	const other = otherEncoding(meterTypeFor(ctx.settings.baseUrl, ctx.settings.meterType));
	const [from, to] = other === 'name' ? ['1/2', 'Prepaid/Postpaid'] : ['Prepaid/Postpaid', '1/2'];
	ctx.logger?.info?.(`electricity: the site refused MeterType as ${from}; sending it as ${to}`);
	const out = await send({ ...ctx.settings, meterTypeNow: other });
	learnMeterType(ctx.settings.baseUrl, other);
	return out;
}
