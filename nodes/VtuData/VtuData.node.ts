import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { DataPurchase, PurchaseRequest } from '../../client/core';
import { PRODUCT_TABLE } from '../../client/products/registry';
import { catalogueField, networkField, phoneField, portedField, purchaseOptions } from '../shared/descriptions';
import { quoteJson } from '../shared/format';
import { planJson } from '../shared/loadOptions';
import { booleanParam, catalogueIdParam, idParam, stringParam } from '../shared/params';
import {
	getTransactionOutput,
	spending,
	usableAsTool,
	vtuMethods,
	vtuNodeBase,
	vtuProperties,
	vtuSubtitle,
} from '../shared/product';
import { runEachItem, runPurchases } from '../shared/runner';

const P = PRODUCT_TABLE.data;

export class VtuData implements INodeType {
	description: INodeTypeDescription = {
		...vtuNodeBase(P),
		icon: { light: 'file:vtuData.svg', dark: 'file:vtuData.dark.svg' },
		subtitle: vtuSubtitle(P),
		usableAsTool: usableAsTool(P),
		properties: vtuProperties(P, [
			networkField({ operation: ['buy', 'listPlans'] }),
			catalogueField(
				'plan',
				P.fields.plan.label,
				'Data plan of the chosen network (size, kind, your price, validity)',
				spending(P),
				'getDataPlans',
				['network'],
			),
			phoneField(spending(P)),
			portedField(spending(P)),
			purchaseOptions(spending(P)),
		]),
	};

	methods = vtuMethods('getNetworks', 'getDataPlans');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation === 'listPlans') {
			return [
				await runEachItem(this, async (i, c) =>
					(await c.catalog.dataPlans(idParam(this, 'network', i, P.fields.network.label))).map(planJson),
				),
			];
		}
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
