import type { Product } from '../types';
import type { ProductModule } from './common';
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
