import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nairaText, type PurchaseRequest, type ValidationResult, type VtuClient } from '../../client/core';
import { PRODUCT_SPECS } from '../../client/products/registry';
import type { ProductOperation, ProductSpec } from '../../client/products/table';
import type { Product } from '../../client/types';
import { getClient } from './client';
import { vtuApiTest } from './credentialTest';
import { transactionLookupFields } from './descriptions';
import { refuse } from './errors';
import { resultJson } from './format';
import { vtuLoadOptions } from './loadOptions';
import { getTransaction } from './operations';
import { runEachItem, runPurchases } from './runner';
import { CREDENTIAL_NAME } from './transport';

/**
 * What a VTU node's description is made of: a product table row, or the same for
 * a non-product node (whose `spend` is just the operation a new node starts on).
 */
export type NodeSpec = Pick<ProductSpec, 'node' | 'title' | 'noun' | 'summary' | 'aiTool' | 'operations' | 'spend'> & {
	/** The canvas subtitle when not "operation: noun". */
	subtitle?: string;
};

/**
 * A product node's spec: the first registered product of the node names and describes it; products that
 * are operations of the same node (data coupons on VTU Data) add their operations, listed by name.
 */
export function productNodeSpec(node: string): NodeSpec {
	const specs = PRODUCT_SPECS.filter((s) => s.node === node);
	if (!specs.length) throw new Error(`no product of the registry has the node ${node}`);
	const operations = specs.flatMap((s) => s.operations as ProductOperation[]);
	return { ...specs[0], operations: operations.sort((a, b) => a.name.localeCompare(b.name)) };
}

/** What every VTU action node shares: one main input and output, and the VTU API credential with its test. */
const ACTION_NODE: Pick<INodeTypeDescription, 'group' | 'version' | 'inputs' | 'outputs' | 'credentials'> = {
	group: ['transform'],
	version: 1,
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: [{ name: CREDENTIAL_NAME, required: true, testedBy: 'vtuApiTest' }],
};

/**
 * The common part of a VTU node's description. The node's own description literal adds its icon, subtitle,
 * AI-tool flag and properties: n8n's lint checks those there, so those lines repeat in every node (kept on
 * purpose, docs/contributing.md). Type and parameter names are what saved workflows refer to: never rename them.
 */
export function vtuNodeBase(spec: NodeSpec): Omit<INodeTypeDescription, 'properties' | 'icon'> {
	const displayName = `VTU ${spec.title}`;
	return { displayName, name: spec.node, ...ACTION_NODE, description: spec.summary, defaults: { name: displayName } };
}

/** displayOptions.show of the fields of the node's spending operation. */
export function spending(spec: NodeSpec): { operation: string[] } {
	return { operation: [spec.spend] };
}

/** "buy: airtime" under the node's name on the canvas. */
export function vtuSubtitle(spec: NodeSpec): string {
	return spec.subtitle ?? `={{$parameter["operation"] + ": ${spec.noun}"}}`;
}

/**
 * Whether an AI agent may call the node as a tool, from the
 * product's row (client/products/<product>/spec.ts, aiTool).
 */
export function usableAsTool(spec: NodeSpec): true {
	return spec.aiTool;
}

/**
 * A VTU node's properties: the Operation field from its spec, the node's own fields, then, when the spec
 * has a Get Transaction operation, its lookup fields.
 */
export function vtuProperties(spec: NodeSpec, fields: INodeProperties[]): INodeProperties[] {
	const { operations, spend } = spec;
	const hasGetTransaction = operations.some((o: ProductOperation) => o.value === 'getTransaction');
	const buys = fields.find((f) => f.name === 'options' && f.options?.some((o) => 'name' in o && o.name === 'spendCap'));
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			options: operations,
			default: spend,
		},
		...fields,
		...(buys ? [retryNotice(buys.displayOptions?.show ?? spending(spec))] : []),
		...(hasGetTransaction ? transactionLookupFields({ operation: ['getTransaction'] }) : []),
	];
}

/**
 * Shown under a buying operation: n8n's Retry On Fail (node Settings) re-runs the node in the same
 * execution, and the node answers what it already bought instead of buying again (runner.ts).
 */
export const RETRY_NOTICE =
	'Retry On Fail (Settings) never buys an item twice: when n8n runs this node again in the same ' +
	'execution, items it already bought come back as they were (path ' +
	'"already_bought_this_execution") and an unclear one is looked up, not sent again. A new ' +
	'execution (e.g. a re-run of the workflow) does not know them: use the option Skip If Already ' +
	'Bought Within for that.';

function retryNotice(show: NonNullable<INodeProperties['displayOptions']>['show']): INodeProperties {
	return {
		displayName: RETRY_NOTICE,
		name: 'retryOnFailNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	};
}

type LoadOptionsName = keyof typeof vtuLoadOptions;

/** A VTU node's `methods`: the credential test and the named dropdown loaders. */
export function vtuMethods(...loaders: LoadOptionsName[]) {
	const credentialTest = { vtuApiTest };
	if (loaders.length === 0) return { credentialTest };
	const loadOptions: Partial<typeof vtuLoadOptions> = {};
	for (const name of loaders) (loadOptions as Record<string, unknown>)[name] = vtuLoadOptions[name];
	return { loadOptions, credentialTest };
}

/**
 * Everything a product node's class takes from its spec, from one call: the description's base, subtitle,
 * AI-tool flag and properties, and the node's methods (with the dropdowns it names).
 */
export function productNode(spec: NodeSpec) {
	return {
		base: vtuNodeBase(spec),
		subtitle: vtuSubtitle(spec),
		usableAsTool: usableAsTool(spec),
		properties: (fields: INodeProperties[]) => vtuProperties(spec, fields),
		methods: (...loaders: LoadOptionsName[]) => vtuMethods(...loaders),
	};
}

/** The Get Transaction operation of a product's node: one record per item, by ID or reference. */
export async function getTransactionOutput(ctx: IExecuteFunctions, product: Product): Promise<INodeExecutionData[][]> {
	return [await runEachItem(ctx, async (i, client) => resultJson(await getTransaction(ctx, client, product, i)))];
}

/** A limit in kobo as node texts show it: "₦50", "₦1,500.50". */
export function limitText(kobo: number): string {
	return nairaText(kobo).replace(/\.00$/, '');
}

/**
 * The spending operation of a bill product (cable, electricity): each item's account (IUC, meter) is
 * checked with the site first unless the node's "Validate … First" option is off; an invalid one is
 * refused and nothing is paid for it.
 */
export async function validatedPurchases<I>(
	ctx: IExecuteFunctions,
	steps: {
		input: (itemIndex: number) => I;
		validate: (client: VtuClient, input: I) => Promise<ValidationResult>;
		/**
		 * What an invalid account's refusal (`invalid_input`, nothing paid) says and how to fix it; `siteSaid` is
		 * " (the site said: …)" with the name the site gave, or ''.
		 */
		refusal: (input: I, siteSaid: string) => { message: string; hint: string };
		request: (input: I, itemIndex: number) => PurchaseRequest;
	},
): Promise<INodeExecutionData[][]> {
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const validateFirst = options.validateFirst !== false;
	const client = await getClient(ctx);
	return [
		await runPurchases<PurchaseRequest>(ctx, {
			build: async (i) => {
				const input = steps.input(i);
				if (validateFirst) {
					const v = await steps.validate(client, input);
					if (!v.valid) {
						const { message, hint } = steps.refusal(input, v.name ? ` (the site said: ${v.name})` : '');
						throw refuse('invalid_input', message, hint);
					}
				}
				return steps.request(input, i);
			},
		}),
	];
}

/** The "Validate … First" option of a bill product's spending operation (read by validatedPurchases). */
export function validateFirstOption(displayName: string, what: string): INodeProperties {
	return {
		displayName,
		name: 'validateFirst',
		type: 'boolean',
		default: true,
		description: `Whether to check the ${what} before paying and refuse the item when it is invalid`,
	};
}
