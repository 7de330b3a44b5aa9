import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { parseQuantity, type VtuClient } from '../../client/core';
import { PRODUCT_LIST } from '../../client/products/registry';
import { PRODUCT_OPTIONS, productField } from '../shared/descriptions';
import { ACCOUNT_NODES } from '../shared/accountNodes';
import { productNode } from '../shared/product';
import { runEachItem } from '../shared/runner';

/** One item per price of the chosen product (or of every product), as its folder lists them (client/products). */
async function prices(client: VtuClient, product: string): Promise<IDataObject[]> {
	const catalog = await client.catalog.get();
	return PRODUCT_LIST.filter((d) => product === 'all' || d.spec.product === product).flatMap((d) => d.prices(catalog));
}

/** The newest rows of the wallet history, up to `max` (pages read as needed), one item per row. */
async function history(client: VtuClient, search: string, max: number): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	for (let page: number | null = 1; page && out.length < max; ) {
		const p = await client.wallet.history({ page, search: search.trim() || undefined });
		for (const r of p.items.slice(0, max - out.length)) {
			out.push({
				text: r.text,
				direction: r.direction,
				refund: r.refund,
				amount: r.amount.naira,
				amountKobo: r.amount.kobo,
				balanceBefore: r.balanceBefore?.naira ?? null,
				balanceAfter: r.balanceAfter?.naira ?? null,
				createdAt: r.createdAt,
				reference: r.ident,
			});
		}
		page = p.next;
	}
	return out;
}

const P = ACCOUNT_NODES.wallet;
const N = productNode(P);

export class VtuWallet implements INodeType {
	description: INodeTypeDescription = {
		...N.base,
		// literal for n8n lint: icon-validation, require-node-description-fields, node-usable-as-tool
		icon: { light: 'file:vtuWallet.svg', dark: 'file:vtuWallet.dark.svg' },
		subtitle: N.subtitle,
		usableAsTool: N.usableAsTool,
		properties: N.properties([
			productField(
				[...PRODUCT_OPTIONS, { name: 'All', value: 'all' }].sort((x, y) => x.name.localeCompare(y.name)),
				'Which price list to return, one item per price',
				{ operation: ['getPrices'] },
			),
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				placeholder: 'e.g. 08031234567',
				description: 'Only rows whose text contains this (a phone number, a meter number), where the site filters',
				displayOptions: { show: { operation: ['getHistory'] } },
			},
			{
				displayName: 'Max Rows',
				name: 'maxRows',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 1000 },
				default: 50,
				description: 'Max number of results to return',
				displayOptions: { show: { operation: ['getHistory'] } },
			},
		]),
	};

	methods = N.methods();

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		return [
			await runEachItem(this, async (i, client) => {
				if (operation === 'getPrices') {
					return await prices(client, this.getNodeParameter('product', i, 'data') as string);
				}
				if (operation === 'getHistory') {
					const max = parseQuantity(this.getNodeParameter('maxRows', i, 50), 'Max Rows', 1, 1000);
					return await history(client, this.getNodeParameter('search', i, '') as string, max);
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
