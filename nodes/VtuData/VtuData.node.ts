import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { DataPurchase, PurchaseRequest } from '../../client/core';
import { vtuApiTest } from '../shared/credentialTest';
import {
	networkField,
	phoneField,
	portedField,
	purchaseOptions,
	transactionLookupFields,
} from '../shared/descriptions';
import { quoteJson, resultJson } from '../shared/format';
import { getTransaction } from '../shared/operations';
import { planLabel, vtuLoadOptions } from '../shared/loadOptions';
import { runEachItem, runPurchases } from '../shared/runner';
import { idParam, stringParam } from '../shared/params';

export class VtuData implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VTU Data',
		name: 'vtuData',
		icon: { light: 'file:vtuData.svg', dark: 'file:vtuData.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": data"}}',
		description: 'Buy mobile data bundles (SME, gifting, CG, awoof, data share) from a VTU merchant API',
		defaults: { name: 'VTU Data' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vtuApi', required: true, testedBy: 'vtuApiTest' }],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Buy',
						value: 'buy',
						description: 'Buy a data bundle for a phone number (debits the wallet)',
						action: 'Buy data',
					},
					{
						name: 'Get Transaction',
						value: 'getTransaction',
						description: 'Read one data purchase by ID or reference',
						action: 'Get a data transaction',
					},
					{
						name: 'List Plans',
						value: 'listPlans',
						description: 'List the data plans of a network with your prices',
						action: 'List data plans',
					},
				],
				default: 'buy',
			},
			networkField({ operation: ['buy', 'listPlans'] }),
			{
				displayName: 'Plan Name or ID',
				name: 'plan',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getDataPlans', loadOptionsDependsOn: ['network'] },
				default: '',
				required: true,
				description:
					'Data plan of the chosen network (size, kind, your price, validity). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: { show: { operation: ['buy'] } },
			},
			phoneField({ operation: ['buy'] }),
			portedField({ operation: ['buy'] }),
			purchaseOptions({ operation: ['buy'] }),
			...transactionLookupFields({ operation: ['getTransaction'] }),
		],
	};

	methods = {
		loadOptions: {
			getNetworks: vtuLoadOptions.getNetworks,
			getDataPlans: vtuLoadOptions.getDataPlans,
		},
		credentialTest: { vtuApiTest },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation === 'buy') {
			return [
				await runPurchases<PurchaseRequest>(this, {
					build: (i) => ({
						product: 'data',
						network: idParam(this, 'network', i, 'Network'),
						plan: Number(idParam(this, 'plan', i, 'Plan')),
						phone: stringParam(this, 'phone', i, 'Phone Number'),
						ported: this.getNodeParameter('ported', i, false) as boolean,
					}),
					// The priced row also says which network (by name) and plan it was priced for, in the
					// dropdowns' own values, so a following Buy can map {{ $json.network }} and {{ $json.plan }}.
					quote: async (client, req) => {
						const r = req as DataPurchase;
						const q = await client.quote(r);
						const [plan] = await client.catalog.dataPlans(r.network);
						return { kobo: q.amount.kobo, json: { ...quoteJson(q), network: plan?.network ?? String(r.network), plan: String(r.plan) } };
					},
				}),
			];
		}
		if (operation === 'listPlans') {
			return [
				await runEachItem(this, async (i, client) => {
					const plans = await client.catalog.dataPlans(idParam(this, 'network', i, 'Network'));
					return plans.map((p) => ({
						id: p.id,
						network: p.network,
						networkId: p.networkId,
						size: p.size,
						kind: p.kind,
						price: p.price.naira,
						validity: p.validity,
						available: p.available,
						label: planLabel(p),
					}));
				}),
			];
		}
		return [await runEachItem(this, async (i, client) => resultJson(await getTransaction(this, client, 'data', i)))];
	}
}
