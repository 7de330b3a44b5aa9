/**
 * What one product folder registers (client/products/<name>/index.ts): its table row, its module (request
 * building, validation, response and record parsing, matching rules) and its catalogue section as price
 * rows. client/products/registry.ts lists the folders; everything else derives from that list.
 */
import type { Catalog } from '../types';
import type { ProductModule } from './common';
import type { ProductSpec } from './table';

/** One price row of the product's catalogue section (the Wallet node's Get Prices output). */
export type PriceRow = Record<string, string | number | boolean | null>;

export interface ProductDefinition<S extends ProductSpec = ProductSpec, Req = unknown> {
	spec: S;
	module: ProductModule<Req>;
	/** The product's section of the catalogue as price rows, each with `product` set. */
	prices(catalog: Catalog): PriceRow[];
}

/** Keeps the row's literal types (product name, limits) for the registry to derive `Product` from. */
export function defineProduct<const S extends ProductSpec, Req>(
	d: ProductDefinition<S, Req>,
): ProductDefinition<S, Req> {
	return d;
}
