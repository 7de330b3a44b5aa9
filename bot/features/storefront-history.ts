/**
 * Storefront mode's /history: the customer's latest orders from the store's books (price, state, reference,
 * and what a delivered order handed over: the electricity token, exam and card PINs) and the payments that
 * reached their wallet. Typed during a flow it answers without ending it.
 */
import { deliveredLines } from '../delivery';
import { dateText } from '../flow/ui';
import { t } from '../i18n';
import { naira, productName, smsWhat } from '../orders';
import type { CustomerHistory } from '../storefront/service';
import { readingFeature } from './reading';

type Row = CustomerHistory['orders'][number];

const STATE: Record<Row['state'], string> = {
	held: 'sf-state-held',
	unknown: 'sf-state-unknown',
	settled: 'sf-state-settled',
	released: 'sf-state-released',
	refunded: 'sf-state-refunded',
};

/** "Electricity to 45012345678": the product and whom it was for, from the order's request. */
function whatOf(r: Row): string {
	const q = r.request;
	if (q.product === 'sms') return smsWhat(q);
	const product = productName(String(q.product ?? ''));
	const to = [q.phone, q.iuc, q.meter].find((v) => typeof v === 'string' && v);
	return to ? t('sf-history-what-to', { product, to: String(to) }) : product;
}

function orderLines(r: Row, i: number): string[] {
	const date = dateText(Date.parse(r.at));
	const state = t(STATE[r.state]);
	const head = t('sf-history-line', { n: i + 1, date, what: whatOf(r), price: naira(r.price), state, ref: r.id });
	const handed = r.delivered ? deliveredLines(r.delivered.product, r.delivered.details) : [];
	return [head, ...handed.map((l) => `   ${l}`)];
}

export function historyText(h: CustomerHistory): string {
	if (!h.orders.length && !h.payments.length) return t('sf-history-empty');
	const parts = [t('history-title'), ...(h.orders.length ? h.orders.flatMap(orderLines) : [t('sf-history-no-orders')])];
	if (h.payments.length) {
		parts.push('', t('sf-history-payments'));
		for (const p of h.payments)
			parts.push(
				t('sf-history-payment', { date: dateText(Date.parse(p.at)), amount: naira(p.amount), ref: p.reference }),
			);
	}
	return parts.join('\n');
}

export const storefrontHistory = readingFeature('storefront-history', 'history', {
	command: { name: 'history', description: 'cmd-history', help: 'help-sf-history' },
	menu: { label: 'menu-history', row: 4 },
	read: async (s, ctx) => historyText(await s.storefront!.historyOf(ctx.from!.id)),
	failed: 'sf-history-failed',
});
