import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { VtuClient } from '../../client/core';
import { vtuApiTest } from '../shared/credentialTest';
import { planLabel } from '../shared/loadOptions';
import { runEachItem } from '../shared/runner';

async function prices(client: VtuClient, product: string): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	const want = (p: string) => product === 'all' || product === p;
	if (want('data')) {
		for (const n of await client.catalog.networks()) {
			for (const p of n.plans) {
				out.push({
					product: 'data',
					network: n.name,
					networkId: n.id,
					id: p.id,
					name: `${p.size} ${p.kind}`,
					size: p.size,
					kind: p.kind,
					price: p.price.naira,
					validity: p.validity,
					available: p.available,
					label: planLabel(p),
				});
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

export class VtuWallet implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VTU Wallet',
		name: 'vtuWallet',
		icon: { light: 'file:vtuWallet.svg', dark: 'file:vtuWallet.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": wallet"}}',
		description: 'Read the wallet balance, account profile and your prices from a VTU merchant API',
		defaults: { name: 'VTU Wallet' },
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
						name: 'Get Balance',
						value: 'getBalance',
						description: 'Get the wallet balance',
						action: 'Get the wallet balance',
					},
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
				default: 'getProfile',
			},
			{
				displayName: 'Product',
				name: 'product',
				type: 'options',
				options: [
					{ name: 'Airtime', value: 'airtime' },
					{ name: 'All', value: 'all' },
					{ name: 'Bulk SMS', value: 'sms' },
					{ name: 'Cable TV', value: 'cable' },
					{ name: 'Data', value: 'data' },
					{ name: 'Electricity', value: 'electricity' },
					{ name: 'Exam Pin', value: 'exam_pin' },
					{ name: 'Recharge Card', value: 'recharge_card' },
				],
				default: 'data',
				description: 'Which price list to return, one item per price',
				displayOptions: { show: { operation: ['getPrices'] } },
			},
		],
	};

	methods = { credentialTest: { vtuApiTest } };

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
