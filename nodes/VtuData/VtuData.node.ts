import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { DataPurchase, PurchaseRequest } from '../../client/core';
import { PRODUCT_TABLE } from '../../client/products/registry';
import {
	catalogueField,
	networkField,
	phoneField,
	portedField,
	purchaseOptions,
	quantityField,
} from '../shared/descriptions';
import { quoteJson } from '../shared/format';
import { planJson } from '../../client/products/data';
import { booleanParam, catalogueIdParam, idParam, positiveIntParam, stringParam } from '../shared/params';
import { getTransactionOutput, productNode, productNodeSpec, spending } from '../shared/product';
import { runEachItem, runPurchases } from '../shared/runner';

const P = PRODUCT_TABLE.data;
/** Data coupons: printed pins for the same networks and plans, an operation of this node (Buy Coupon). */
const C = PRODUCT_TABLE.data_coupon;
const NODE = productNodeSpec(P.node);
const N = productNode(NODE);
const BUYS = { operation: [P.spend, C.spend] };

export class VtuData implements INodeType {
	description: INodeTypeDescription = {
		...N.base,
		// literal for n8n lint: icon-validation, require-node-description-fields, node-usable-as-tool
		icon: { light: 'file:vtuData.svg', dark: 'file:vtuData.dark.svg' },
		subtitle: N.subtitle,
		usableAsTool: N.usableAsTool,
		properties: N.properties([
			networkField({ operation: [P.spend, 'listPlans', C.spend] }),
			catalogueField(
				'plan',
				P.fields.plan.label,
				'Data plan of the chosen network (size, kind, your price, validity)',
				BUYS,
				'getDataPlans',
				['network'],
			),
			phoneField(spending(P)),
			portedField(spending(P)),
			quantityField(
				C.fields.quantity.label,
				C.limits.quantity,
				`Number of coupons in this order (up to ${C.limits.quantity.max})`,
				spending(C),
			),
			{
				displayName: C.fields.nameOnCard.label,
				name: 'nameOnCard',
				type: 'string',
				default: '',
				placeholder: 'e.g. Ade Stores',
				description: 'Business name printed on the coupons (empty: the account name)',
				displayOptions: { show: spending(C) },
			},
			purchaseOptions(BUYS),
		]),
	};

	methods = N.methods('getNetworks', 'getDataPlans');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation === 'listPlans') {
			return [
				await runEachItem(this, async (i, c) =>
					(await c.catalog.dataPlans(idParam(this, 'network', i, P.fields.network.label))).map(planJson),
				),
			];
		}
		if (operation === C.spend) return [await runPurchases<PurchaseRequest>(this, { build: (i) => coupon(this, i) })];
		if (operation !== P.spend) return await getTransactionOutput(this, P.product);
		return [
			await runPurchases<PurchaseRequest>(this, {
				build: (i) => ({
					product: P.product,
					network: idParam(this, 'network', i, P.fields.network.label),
					plan: catalogueIdParam(this, 'plan', i, P.fields.plan.label, 'the plan ID from the list'),
					phone: stringParam(this, 'phone', i, P.fields.phone.label),
					ported: booleanParam(this, 'ported', i),
				}),
				// The priced row also says which network (by name) and plan it was priced for, in the
				// dropdowns' own values, so a following Buy can map {{ $json.network }} and {{ $json.plan }}.
				quote: async (client, req) => {
					const r = req as DataPurchase;
					const q = await client.quote(r);
					const [plan] = await client.catalog.dataPlans(r.network);
					return {
						kobo: q.amount.kobo,
						json: { ...quoteJson(q), network: plan?.network ?? String(r.network), plan: String(r.plan) },
					};
				},
			}),
		];
	}
}

/** A Buy Coupon item's request: the pins come back in the output's details.cards. */
function coupon(ctx: IExecuteFunctions, i: number): PurchaseRequest {
	const nameOnCard = stringParam(ctx, 'nameOnCard', i, C.fields.nameOnCard.label, false);
	return {
		product: C.product,
		network: idParam(ctx, 'network', i, C.fields.network.label),
		plan: catalogueIdParam(ctx, 'plan', i, C.fields.plan.label, 'the plan ID from the list'),
		quantity: positiveIntParam(ctx, 'quantity', i, C.fields.quantity.label),
		...(nameOnCard ? { nameOnCard } : {}),
	};
}
