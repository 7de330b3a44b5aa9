/**
 * The one list of products. A product is a folder under client/products/ (its index.ts registers it);
 * `Product`, `PurchaseRequest`, the product table, the client's product lookups, the nodes' product lists
 * and the Wallet's price output derive from this list, and test/nodes/registry.test.ts fails when the
 * node package (package.json, icons, node folders) drifts from it. docs/contributing.md: adding a product.
 */
import { shown } from '../errors';
import { invalid, type ProductModule } from './common';
import type { CatalogSection, ProductDefinition, SectionKey } from './define';
import type { ProductField } from './table';
import { airtime } from './airtime';
import { cable } from './cable';
import { data } from './data';
import { dataCoupon } from './data-coupon';
import { electricity } from './electricity';
import { examPin } from './exam-pin';
import { rechargeCard } from './recharge-card';
import { sms } from './sms';

export const PRODUCT_LIST = [data, airtime, cable, electricity, examPin, rechargeCard, sms, dataCoupon] as const;

type Definition = (typeof PRODUCT_LIST)[number];
/** A product's name ("data", "exam_pin", …), as its folder's table row spells it. */
export type Product = Definition['spec']['product'];
type RequestOf<D> = D extends ProductDefinition<infer _S, infer R> ? R : never;
/** Any product's purchase request. */
export type PurchaseRequest = RequestOf<Definition>;

export type { DataPurchase } from './data/module';
export type { AirtimePurchase } from './airtime/module';
export type { CablePurchase } from './cable/module';
export type { ElectricityPurchase } from './electricity/module';
export type { ExamPinPurchase } from './exam-pin/module';
export type { RechargeCardPurchase } from './recharge-card/module';
export type { SmsPurchase } from './sms/module';
export type { DataCouponPurchase } from './data-coupon/module';

/** The product table: each product's row by name (typed per product, limits included). */
export const PRODUCT_TABLE = Object.fromEntries(PRODUCT_LIST.map((d) => [d.spec.product, d.spec])) as {
	[D in Definition as D['spec']['product']]: D['spec'];
};

/** The table's rows in registration order (n8n's product dropdowns sort them by title). */
export const PRODUCT_SPECS: Array<Definition['spec']> = PRODUCT_LIST.map((d) => d.spec);

type SectionOf<D> = D extends { catalog: CatalogSection<infer K> } ? K : never;
/** A `Catalog` field no registered product reads (none: every field but `networks` has its product's section). */
type Unread = Exclude<SectionKey, SectionOf<Definition>>;

/**
 * The products' own catalogue sections, in registration order (client/catalog.ts reads them all). Its type
 * fails the check, naming the field, while a `Catalog` field has no section.
 */
export const CATALOG_SECTIONS: CatalogSection[] & ([Unread] extends [never] ? unknown : { unread: Unread }) =
	PRODUCT_LIST.flatMap((d) => (d.catalog ? [d.catalog] : []));

/** Each product's module by name. */
export const PRODUCTS = Object.fromEntries(PRODUCT_LIST.map((d) => [d.spec.product, d.module])) as Record<
	Product,
	ProductModule<any>
>;

/** The site's field name → the client's, for a field error the site reports by its wire name. */
export const FIELD_BY_WIRE: Record<string, string> = Object.fromEntries(
	PRODUCT_SPECS.flatMap((p) =>
		Object.entries(p.fields as Record<string, ProductField>).flatMap(([field, f]) =>
			f.wire ? [[f.wire, field] as const] : [],
		),
	),
);

/** The definition of a product name: own keys only, so "__proto__" is invalid_input, never Object's. */
export function productDefinition(product: unknown): Definition {
	const d = PRODUCT_LIST.find((x) => x.spec.product === product);
	if (d) return d;
	throw invalid(
		'product',
		`product ${shown(product)} is unknown; use one of: ${PRODUCT_SPECS.map((s) => s.product).join(', ')}.`,
	);
}

/** The module of a product name (unknown names are invalid_input). */
export function productModule(product: unknown): ProductModule {
	return productDefinition(product).module as ProductModule;
}
