import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { Product } from '../../client/types';
import { limitField, PRODUCT_OPTIONS, transactionLookupFields } from '../shared/descriptions';
import { resultJson } from '../shared/format';
import { getTransaction } from '../shared/operations';
import { type NodeSpec, usableAsTool, vtuMethods, vtuNodeBase, vtuProperties } from '../shared/product';
import { runEachItem } from '../shared/runner';

const P: NodeSpec = {
	node: 'vtuTransaction',
	title: 'Transaction',
	noun: 'transaction',
	summary: 'Look up any VTU purchase by ID or reference, or list recent ones',
	// read-only: an agent may check what a purchase became
	aiTool: true,
	spend: 'get',
	operations: [
		{ name: 'Get', value: 'get', description: 'Get one transaction by ID or reference', action: 'Get a transaction' },
		{ name: 'Get Many', value: 'getMany', description: 'List the newest transactions of a product', action: 'Get many transactions' },
	],
};

export class VtuTransaction implements INodeType {
	description: INodeTypeDescription = {
		...vtuNodeBase(P),
		icon: { light: 'file:vtuTransaction.svg', dark: 'file:vtuTransaction.dark.svg' },
		subtitle: '={{$parameter["operation"] + ": " + $parameter["product"]}}',
		usableAsTool: usableAsTool(P),
		properties: vtuProperties(P, [
			{
				displayName: 'Product',
				name: 'product',
				type: 'options',
				options: PRODUCT_OPTIONS.filter((p) => p.value !== 'sms'),
				default: 'data',
				description: 'Which kind of purchase to look up',
			},
			...transactionLookupFields({ operation: ['get'] }),
			limitField({ operation: ['getMany'] }),
		]),
	};

	methods = vtuMethods();

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
