import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { Product } from '../../client/types';
import { limitField, PRODUCT_OPTIONS, productField, transactionLookupFields } from '../shared/descriptions';
import { resultJson } from '../shared/format';
import { getTransaction } from '../shared/operations';
import { ACCOUNT_NODES } from '../shared/accountNodes';
import { usableAsTool, vtuMethods, vtuNodeBase, vtuProperties, vtuSubtitle } from '../shared/product';
import { runEachItem } from '../shared/runner';

const P = ACCOUNT_NODES.transaction;

export class VtuTransaction implements INodeType {
	description: INodeTypeDescription = {
		...vtuNodeBase(P),
		icon: { light: 'file:vtuTransaction.svg', dark: 'file:vtuTransaction.dark.svg' },
		subtitle: vtuSubtitle(P),
		usableAsTool: usableAsTool(P),
		properties: vtuProperties(P, [
			productField(PRODUCT_OPTIONS.filter((p) => p.value !== 'sms'), 'Which kind of purchase to look up'),
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
