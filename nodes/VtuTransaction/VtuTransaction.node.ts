import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { Product } from '../../client/types';
import { vtuApiTest } from '../shared/credentialTest';
import { PRODUCT_OPTIONS, transactionLookupFields } from '../shared/descriptions';
import { resultJson } from '../shared/format';
import { getTransaction } from '../shared/operations';
import { runEachItem } from '../shared/runner';

export class VtuTransaction implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VTU Transaction',
		name: 'vtuTransaction',
		icon: { light: 'file:vtuTransaction.svg', dark: 'file:vtuTransaction.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["product"]}}',
		description: 'Look up any VTU purchase by ID or reference, or list recent ones',
		defaults: { name: 'VTU Transaction' },
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
						name: 'Get',
						value: 'get',
						description: 'Get one transaction by ID or reference',
						action: 'Get a transaction',
					},
					{
						name: 'Get Many',
						value: 'getMany',
						description: 'List the newest transactions of a product',
						action: 'Get many transactions',
					},
				],
				default: 'get',
			},
			{
				displayName: 'Product',
				name: 'product',
				type: 'options',
				options: PRODUCT_OPTIONS.filter((p) => p.value !== 'sms'),
				default: 'data',
				description: 'Which kind of purchase to look up',
			},
			...transactionLookupFields({ operation: ['get'] }),
			{
				displayName: 'Limit',
				name: 'limit',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 50,
				description: 'Max number of results to return',
				displayOptions: { show: { operation: ['getMany'] } },
			},
		],
	};

	methods = { credentialTest: { vtuApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		return [
			await runEachItem(this, async (i, client) => {
				const product = this.getNodeParameter('product', i) as Product;
				if (operation === 'getMany') {
					const limit = this.getNodeParameter('limit', i, 50) as number;
					const out = [];
					let page: number | null = 1;
					for (let guard = 0; page !== null && out.length < limit && guard < 200; guard++) {
						const res = await client.transactions.list(product, { page });
						for (const r of res.items) if (out.length < limit) out.push(resultJson(r));
						page = res.items.length === 0 ? null : res.next;
					}
					return out;
				}
				return resultJson(await getTransaction(this, client, product, i));
			}),
		];
	}
}
