import type { ElectricityPurchase, Disco } from '../types';
import { discoKey, type CatalogIndex } from '../catalog';
import { formatNaira, nairaText, parseNaira } from '../money';
import { normalizePhone } from '../phone';
import { charged, firstMoney, invalid, parseBase, requireDigits, result, text, type ProductModule } from './common';

export const ELECTRICITY_MIN = 50_000; // ₦500

export function resolveDisco(idx: CatalogIndex, disco: unknown): Disco {
  let d: Disco | undefined;
  if (typeof disco === 'number' || (typeof disco === 'string' && /^\s*\d+\s*$/.test(disco))) d = idx.discoById.get(Number(disco));
  else if (typeof disco === 'string') {
    const k = discoKey(disco);
    d = idx.discoByName.get(k) ?? (k ? idx.catalog.discos.find((x) => discoKey(x.name).startsWith(k) || k.startsWith(discoKey(x.name))) : undefined);
  }
  if (!d) {
    const list = idx.catalog.discos.map((x) => `${x.name} (${x.id})`).join(', ') || 'none listed by this site';
    throw invalid('disco', `disco ${JSON.stringify(disco ?? null)} is not an electricity company of this site. Use one of: ${list}.`);
  }
  return d;
}

export function meterTypeOf(v: unknown): 'prepaid' | 'postpaid' {
  const s = String(v ?? '').trim().toLowerCase();
  if (s === 'prepaid' || s === '1') return 'prepaid';
  if (s === 'postpaid' || s === '2') return 'postpaid';
  throw invalid('meterType', `meterType ${JSON.stringify(v ?? null)} must be "prepaid" or "postpaid".`);
}

export function checkMeter(v: unknown): string {
  return requireDigits(v, 'meter', 'meter number', 6, 13);
}

/** Strip "Token : ", "Token:", "TOKEN -" prefixes some upstreams add. */
export function cleanToken(t: unknown): string {
  return text(t).replace(/^\s*(?:token|pin)\s*[:\-=]?\s*/i, '').trim();
}

export const electricityProduct: ProductModule<ElectricityPurchase> = {
  product: 'electricity',
  path: '/api/billpayment/',
  hasDetail: true,
  prepare(req, idx, settings) {
    const disco = resolveDisco(idx, req.disco);
    const meter = checkMeter(req.meter);
    const mt = meterTypeOf(req.meterType);
    const kobo = parseNaira(req.amount, 'amount');
    if (kobo < ELECTRICITY_MIN) throw invalid('amount', `amount ${nairaText(kobo)} is below the electricity minimum of ${nairaText(ELECTRICITY_MIN)}.`);
    const phone = req.phone !== undefined && req.phone !== '' ? normalizePhone(req.phone, 'phone') : undefined;
    const body: Record<string, unknown> = {
      disco_name: disco.id,
      amount: Number(formatNaira(kobo)),
      meter_number: meter,
      MeterType: settings.meterType === 'number' ? (mt === 'prepaid' ? 1 : 2) : mt === 'prepaid' ? 'Prepaid' : 'Postpaid',
    };
    if (phone) body.Customer_Phone = phone;
    return {
      product: 'electricity',
      path: '/api/billpayment/',
      body,
      quote: {
        product: 'electricity', recipient: meter, amount: { kobo, naira: formatNaira(kobo) },
        description: `${nairaText(kobo)} ${disco.name} ${mt} token for meter ${meter}`, request: body,
      },
      match: { recipient: meter, search: meter, test: (r) => (r.details.faceValue as { kobo?: number } | undefined)?.kobo === kobo },
    };
  },
  parse(raw, path) {
    const b = parseBase(raw, 'electricity');
    const o = b.o;
    const before = firstMoney(o.balance_before, o.previous_balance);
    const after = firstMoney(o.balance_after, o.after_balance);
    const face = firstMoney(o.amount);
    const mtRaw = text(o.MeterType).toLowerCase();
    const details: Record<string, unknown> = {
      token: cleanToken(o.token),
      customerName: text(o.customer_name),
      meterType: mtRaw === '1' || mtRaw === 'prepaid' ? 'prepaid' : mtRaw === '2' || mtRaw === 'postpaid' ? 'postpaid' : mtRaw,
      faceValue: face,
      disco: text(o.package) || o.disco_name,
    };
    const units = o.units ?? o.unit;
    if (units !== undefined && units !== null && units !== '') details.units = text(units);
    if (o.customer_address) details.customerAddress = text(o.customer_address);
    return result('electricity', b, path, {
      amount: charged(firstMoney(o.paid_amount), before, after, face),
      before,
      after,
      recipient: text(o.meter_number) || null,
      details,
    });
  },
};
