import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { VtuClient } from '../../client/core';
import { PRODUCT_LIST } from '../../client/products/registry';
import { PRODUCT_OPTIONS, productField } from '../shared/descriptions';
import { ACCOUNT_NODES } from '../shared/accountNodes';
import { usableAsTool, vtuMethods, vtuNodeBase, vtuProperties, vtuSubtitle } from '../shared/product';
import { runEachItem } from '../shared/runner';

/** One item per price of the chosen product (or of every product), as its folder lists them (client/products). */
async function prices(client: VtuClient, product: string): Promise<IDataObject[]> {
	const catalog = await client.catalog.get();
	return PRODUCT_LIST.filter((d) => product === 'all' || d.spec.product === product).flatMap((d) => d.prices(catalog));
}

const P = ACCOUNT_NODES.wallet;

export class VtuWallet implements INodeType {
	description: INodeTypeDescription = {
		...vtuNodeBase(P),
		icon: { light: 'file:vtuWallet.svg', dark: 'file:vtuWallet.dark.svg' },
		subtitle: vtuSubtitle(P),
		usableAsTool: usableAsTool(P),
		properties: vtuProperties(P, [
			productField(
				[...PRODUCT_OPTIONS, { name: 'All', value: 'all' }].sort((x, y) => x.name.localeCompare(y.name)),
				'Which price list to return, one item per price',
				{ operation: ['getPrices'] },
			),
		]),
	};

	methods = vtuMethods();

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		return [
			await runEachItem(this, async (i, client) => {
				if (operation === 'getPrices') {
					return await prices(client, this.getNodeParameter('product', i, 'data') as string);
				}
				if (operation === 'getBalance') {
					const b = await client.user.balance();
					return { balance: b.naira, balanceKobo: b.kobo };
				}
				const p = await client.user.get();
				return {
					username: p.username,
					fullName: p.fullName,
					email: p.email,
					phone: p.phone,
					userType: p.userType,
					isApiUser: p.isApiUser,
					balance: p.balance.naira,
					balanceKobo: p.balance.kobo,
				};
			}),
		];
	}
}
