/**
 * What one product folder registers (client/products/<name>/index.ts): its table row, its module (request
 * building, validation, response and record parsing, matching rules), its catalogue section (how it is read,
 * and as price rows). client/products/registry.ts lists the folders; everything else derives from that list.
 */
import type { Catalog, NetworkInfo } from '../types';
import type { ProductModule } from './common';
import type { Product } from '../types';
import type { ProductSpec } from './table';

/** One price row of the product's catalogue section (the Wallet node's Get Prices output). */
export type PriceRow = Record<string, string | number | boolean | null>;

export interface ProductDefinition<S extends ProductSpec = ProductSpec, Req = unknown> {
	spec: S;
	module: ProductModule<Req>;
	/** The product's section of the catalogue as price rows, each with `product` set. */
	prices(catalog: Catalog): PriceRow[];
	/** The product's own catalogue section, where it has one (data coupons reuse the data plans). */
	catalog?: CatalogSection;
}

/**
 * Keeps the row's literal types (product name, limits) for the registry to derive `Product` from, and the
 * catalogue section's field, for the registry to check that every field has its section.
 */
export function defineProduct<const S extends ProductSpec, Req, C extends CatalogSection | undefined = undefined>(
	d: ProductDefinition<S, Req> & { catalog?: C },
): ProductDefinition<S, Req> & { catalog: C } {
	return d as ProductDefinition<S, Req> & { catalog: C };
}

/** A catalogue field a product's section fills (the data plans, `networks`, are read first, by the cache). */
export type SectionKey = Exclude<keyof Catalog, 'networks'>;

/**
 * A product's section of the catalogue (client/products/<name>/catalog.ts): where the sites serve it, where
 * it sits in the legacy /api/user/ payload, and its parser. client/catalog.ts reads every registered one.
 */
export interface CatalogSection<K extends SectionKey = SectionKey> {
	/** The `Catalog` field it fills. */
	key: K;
	/** Its name in logs and in what the client learns about a site (`catalogue.<name>`). */
	name: string;
	/** The routes serving it, newest first. */
	routes: readonly string[];
	/**
	 * Whether the route that answers is remembered per site (and, when every route is missing, that the
	 * section is read from /api/user/), as for sections builds serve under different routes; a section with
	 * one optional route is simply asked each time.
	 */
	remember: boolean;
	/** The section in the legacy /api/user/ payload, read when no route answers with a usable shape. */
	legacy(root: Record<string, unknown>): unknown;
	/** Throws CatalogShapeError when the body is not the section's shape. */
	parse(body: unknown, read: { networks: NetworkInfo[] }): Catalog[K];
	/** What the section is when neither its routes nor /api/user/ carry it. */
	fallback: Catalog[K];
}

/** Keeps the section's field name literal, so `parse` and `fallback` are typed by it. */
export function catalogSection<K extends SectionKey>(s: CatalogSection<K>): CatalogSection<K> {
	return s;
}

/**
 * A product's module, its name and collection path taken from its row (spec.ts), so they are written once.
 */
export function productModule<Req>(
	spec: { product: Product; path: string },
	parts: Omit<ProductModule<Req>, 'product' | 'path'>,
): ProductModule<Req> {
	return { product: spec.product, path: spec.path, ...parts };
}
