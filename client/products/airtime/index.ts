/** Airtime top-ups: POST /api/topup/, priced by the network's VTU or Share and Sell percentage. */
import { defineProduct } from '../define';
import { airtimeCatalog } from './catalog';
import { airtimeProduct } from './module';
import { AIRTIME_SPEC } from './spec';

export const airtime = defineProduct({
	spec: AIRTIME_SPEC,
	module: airtimeProduct,
	catalog: airtimeCatalog,
	prices: (c) =>
		c.airtime.map((a) => ({
			product: 'airtime',
			network: a.network,
			name: `${a.network} airtime`,
			vtuPercent: a.vtuPercent,
			shareAndSellPercent: a.shareAndSellPercent,
		})),
});
