import type { AirtimePurchase } from '../types';
import { formatNaira, money, nairaText, parsePlainNaira, percentOf } from '../money';
import { tryNormalizePhone } from '../phone';
import { canonicalNetwork } from '../schemas/catalog';
import { charged, firstMoney, invalid, optionalBoolean, parseBase, resolveNetwork, result, text, type ProductModule } from './common';
import { shown } from '../errors';
import { checkPhoneNetwork } from './data';

export const AIRTIME_MIN_VTU = 5_000; // ₦50
export const AIRTIME_MIN_SNS = 10_000; // ₦100
/** ₦50,000 per top-up: a cap of ours (the family's server states none); typical of the upstream VTU gateways' single top-up limit. */
export const AIRTIME_MAX = 5_000_000;

function airtimeType(t: unknown): 'VTU' | 'Share and Sell' {
  if (t === undefined || t === null || t === '') return 'VTU';
  const s = typeof t === 'string' ? t.trim().toLowerCase().replace(/[\s_-]+/g, ' ') : null;
  if (s === 'vtu') return 'VTU';
  if (s === 'share and sell' || s === 'share & sell' || s === 'sns' || s === 'share n sell') return 'Share and Sell';
  throw invalid('type', `type must be "VTU" or "Share and Sell"; got ${shown(t)}.`);
}

export const airtimeProduct: ProductModule<AirtimePurchase> = {
  product: 'airtime',
  path: '/api/topup/',
  hasDetail: true,
  prepare(req, idx) {
    const net = resolveNetwork(idx, req.network);
    const type = airtimeType(req.type);
    const kobo = parsePlainNaira(req.amount, 'amount');
    const min = type === 'VTU' ? AIRTIME_MIN_VTU : AIRTIME_MIN_SNS;
    if (kobo < min) throw invalid('amount', `amount ${nairaText(kobo)} is below the ${type} minimum of ${nairaText(min)}.`);
    if (kobo > AIRTIME_MAX) throw invalid('amount', `amount ${nairaText(kobo)} is above the maximum of ${nairaText(AIRTIME_MAX)} per top-up; split it.`);
    const ported = optionalBoolean(req.ported, 'ported');
    const phone = checkPhoneNetwork(req.phone, net, ported);
    const disc = idx.catalog.airtime.find((a) => canonicalNetwork(a.network) === canonicalNetwork(net.name));
    const pct = disc ? (type === 'VTU' ? disc.vtuPercent : disc.shareAndSellPercent) : '100';
    const cost = percentOf(kobo, pct);
    const body = { network: net.id, amount: Number(formatNaira(kobo)), mobile_number: phone, Ported_number: ported, airtime_type: type };
    return {
      product: 'airtime',
      path: '/api/topup/',
      body,
      quote: {
        product: 'airtime', recipient: phone, amount: money(cost),
        description: `${nairaText(kobo)} ${net.name} ${type} airtime to ${phone} (you pay ${pct}%: ${nairaText(cost)})`,
        request: body,
      },
      match: {
        recipient: phone,
        search: phone,
        test: (r) => (r.details.faceValue as { kobo?: number } | undefined)?.kobo === kobo,
      },
    };
  },
  parse(raw, path) {
    const b = parseBase(raw, 'airtime');
    const o = b.o;
    const before = firstMoney(o.balance_before, o.previous_balance);
    const after = firstMoney(o.balance_after, o.after_balance);
    const face = firstMoney(o.amount, o.plan_amount);
    return result('airtime', b, path, {
      amount: charged(firstMoney(o.paid_amount), before, after, face),
      before,
      after,
      recipient: tryNormalizePhone(o.mobile_number) ?? (text(o.mobile_number) || null),
      details: { faceValue: face, type: text(o.airtime_type) || 'VTU', network: text(o.plan_network) || o.network, ...(o.customer_name ? { customerName: text(o.customer_name) } : {}) },
    });
  },
};
