/** Electricity tokens: POST /api/billpayment/ after the meter is validated; MeterType learned per site. */
import { defineProduct } from '../define';
import { discoCatalog } from './catalog';
import { electricityProduct } from './module';
import { ELECTRICITY_SPEC } from './spec';

export const electricity = defineProduct({
	spec: ELECTRICITY_SPEC,
	module: electricityProduct,
	catalog: discoCatalog,
	prices: (c) => c.discos.map((d) => ({ product: 'electricity', id: d.id, name: d.name })),
});
