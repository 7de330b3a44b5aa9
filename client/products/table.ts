/**
 * The shape of a product's row (each folder's spec.ts): its operations, fields (with their wire names),
 * limits, catalogue source and whether an AI agent may call it, defined once. The product modules, the n8n
 * node descriptions (nodes/shared/product.ts), the bot's flows and the error messages read the rows through
 * client/products/registry.ts (PRODUCT_TABLE).
 */
import type { Catalog } from '../types';

/** One operation of a product's n8n node (value = the saved parameter value: never rename one). */
export interface ProductOperation {
	value: string;
	name: string;
	description: string;
	action: string;
}

/**
 * One request field: `label` names it to people (node errors, bot), `wire` is its key in the site's JSON body (null:
 * not sent).
 */
export interface ProductField {
	label: string;
	wire: string | null;
}

export interface ProductSpec {
	product: string;
	/** Its area of the client: `client.examPins.buy(…)` (test/nodes/registry.test.ts checks the client has it). */
	namespace: string;
	/** "Exam Pin": the product's name in lists and the node name ("VTU Exam Pin"). */
	title: string;
	/** "exam pin": how a node subtitle names it. */
	noun: string;
	/** The n8n node type name (saved workflows refer to it: never rename). */
	node: string;
	/** One line for the node's description. */
	summary: string;
	/** Purchase endpoint (collection path with trailing slash). */
	path: string;
	/** The same product's route on other builds, tried in order when the site lacks `path` (404/405). */
	routes?: readonly string[];
	/** What `client.catalog` section lists what can be bought, with prices. */
	catalogue: keyof Catalog;
	/**
	 * An AI agent may call the product's node as a tool. Every product is one: n8n's guidance is "when in
	 * doubt, true", and an agent's call meets the same guards as a person's (Spend Cap, Dry Run, the IUC or
	 * meter checked first, one owner per record). n8n's type has no `false`.
	 */
	aiTool: true;
	/** The node's operations in the order n8n lists them; `spend` is the one that debits the wallet. */
	operations: ProductOperation[];
	spend: string;
	fields: Record<string, ProductField>;
	/** A purchase is a batch of POSTs, each leaving its own record (bulk SMS): no "already bought?" check. */
	batch?: true;
	/** The product's own limits (amounts in kobo, lengths, quantities). */
	limits?: unknown;
}

export const getTransaction = (record: string, action: string): ProductOperation => ({
	name: 'Get Transaction',
	value: 'getTransaction',
	description: `Read one ${record} by ID or reference`,
	action,
});

export const NETWORK = { label: 'Network', wire: 'network' };
export const PHONE = { label: 'Phone Number', wire: 'mobile_number' };
export const PORTED = { label: 'Ported Number', wire: 'Ported_number' };
