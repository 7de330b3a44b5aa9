import type { Product } from '../types';
import { shown } from '../errors';
import { invalid, type ProductModule } from './common';
import { dataProduct } from './data';
import { airtimeProduct } from './airtime';
import { cableProduct } from './cable';
import { electricityProduct } from './electricity';
import { examProduct } from './exam';
import { rechargeProduct } from './recharge';
import { smsProduct } from './sms-module';

export const PRODUCTS: Record<Product, ProductModule<any>> = {
	data: dataProduct,
	airtime: airtimeProduct,
	cable: cableProduct,
	electricity: electricityProduct,
	exam_pin: examProduct,
	recharge_card: rechargeProduct,
	sms: smsProduct,
};

/** The module of a product name: own keys only, so "__proto__" or "constructor" is invalid_input, never Object's. */
export function productModule(product: unknown): ProductModule {
	if (typeof product === 'string' && Object.prototype.hasOwnProperty.call(PRODUCTS, product))
		return PRODUCTS[product as Product];
	throw invalid('product', `product ${shown(product)} is unknown; use one of: ${Object.keys(PRODUCTS).join(', ')}.`);
}
