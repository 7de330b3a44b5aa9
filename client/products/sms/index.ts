/** Bulk SMS: a purchase is a batch of POSTs to /api/sendsms/, priced per recipient and page. */
import { defineProduct } from '../define';
import { smsCatalog } from './catalog';
import { smsProduct } from './module';
import { SMS_SPEC } from './spec';

export const sms = defineProduct({
	spec: SMS_SPEC,
	module: smsProduct,
	catalog: smsCatalog,
	prices: (c) => [
		{ product: 'sms', name: 'Bulk SMS', perPage: c.sms.perPage.naira, dndPerPage: c.sms.dndPerPage.naira },
	],
});
