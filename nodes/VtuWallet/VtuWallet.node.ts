import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { VtuClient } from '../../client/core';
import { PRODUCT_OPTIONS } from '../shared/descriptions';
import { planJson } from '../shared/loadOptions';
import { type NodeSpec, usableAsTool, vtuMethods, vtuNodeBase, vtuProperties, vtuSubtitle } from '../shared/product';
import { runEachItem } from '../shared/runner';

async function prices(client: VtuClient, product: string): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	const want = (p: string) => product === 'all' || product === p;
	if (want('data')) {
		for (const n of await client.catalog.networks()) {
			for (const p of n.plans) {
				out.push({ product: 'data', ...planJson(p), network: n.name, networkId: n.id, name: `${p.size} ${p.kind}` });
			}
		}
	}
	if (want('airtime')) {
		for (const a of await client.catalog.airtime()) {
			out.push({
				product: 'airtime',
				network: a.network,
				name: `${a.network} airtime`,
				vtuPercent: a.vtuPercent,
				shareAndSellPercent: a.shareAndSellPercent,
			});
		}
	}
	if (want('cable')) {
		for (const c of await client.catalog.cable()) {
			for (const k of c.packages) {
				out.push({ product: 'cable', provider: c.name, providerId: c.id, id: k.id, name: k.name, price: k.price.naira });
			}
		}
	}
	if (want('electricity')) {
		for (const d of await client.catalog.discos()) {
			out.push({ product: 'electricity', id: d.id, name: d.name });
		}
	}
	if (want('exam_pin')) {
		for (const e of await client.catalog.exams()) {
			out.push({ product: 'exam_pin', name: e.exam, price: e.price.naira });
		}
	}
	if (want('sms')) {
		const s = await client.catalog.sms();
		out.push({ product: 'sms', name: 'Bulk SMS', perPage: s.perPage.naira, dndPerPage: s.dndPerPage.naira });
	}
	if (want('recharge_card')) {
		for (const r of await client.catalog.recharge()) {
			out.push({
				product: 'recharge_card',
				network: r.network,
				networkId: r.networkId,
				id: r.id,
				name: r.label,
				faceValue: r.faceValue.naira,
				price: r.price.naira,
			});
		}
	}
	return out;
}

const P: NodeSpec = {
	node: 'vtuWallet',
	title: 'Wallet',
	noun: 'wallet',
	summary: 'Read the wallet balance, account profile and your prices from a VTU merchant API',
	// read-only: an agent may check the balance and prices before it buys
	aiTool: true,
	spend: 'getProfile',
	operations: [
		{ name: 'Get Balance', value: 'getBalance', description: 'Get the wallet balance', action: 'Get the wallet balance' },
		{
			name: 'Get Prices',
			value: 'getPrices',
			description: 'List your prices for data, airtime, cable, electricity, exam pins, bulk SMS or recharge cards',
			action: 'Get wallet prices',
		},
		{
			name: 'Get Profile',
			value: 'getProfile',
			description: 'Get the account profile with its balance and account type',
			action: 'Get the wallet profile',
		},
	],
};

export class VtuWallet implements INodeType {
	description: INodeTypeDescription = {
		...vtuNodeBase(P),
		icon: { light: 'file:vtuWallet.svg', dark: 'file:vtuWallet.dark.svg' },
		subtitle: vtuSubtitle(P),
		usableAsTool: usableAsTool(P),
		properties: vtuProperties(P, [
			{
				displayName: 'Product',
				name: 'product',
				type: 'options',
				options: [...PRODUCT_OPTIONS, { name: 'All', value: 'all' }].sort((x, y) => x.name.localeCompare(y.name)),
				default: 'data',
				description: 'Which price list to return, one item per price',
				displayOptions: { show: { operation: ['getPrices'] } },
			},
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
