import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { PurchaseRequest } from '../../client/core';
import { vtuApiTest } from '../shared/credentialTest';
import {
	networkField,
	phoneField,
	portedField,
	purchaseOptions,
	transactionLookupFields,
} from '../shared/descriptions';
import { resultJson } from '../shared/format';
import { vtuLoadOptions } from '../shared/loadOptions';
import { getTransaction } from '../shared/operations';
import { amountParam, idParam, stringParam } from '../shared/params';
import { runEachItem, runPurchases } from '../shared/runner';

export class VtuAirtime implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VTU Airtime',
		name: 'vtuAirtime',
		icon: { light: 'file:vtuAirtime.svg', dark: 'file:vtuAirtime.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": airtime"}}',
		description: 'Top up airtime (VTU or Share and Sell) from a VTU merchant API',
		defaults: { name: 'VTU Airtime' },
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
						description: 'Top up airtime on a phone number (debits the wallet)',
						action: 'Buy airtime',
					},
					{
						name: 'Get Transaction',
						value: 'getTransaction',
						description: 'Read one airtime top-up by ID or reference',
						action: 'Get an airtime transaction',
					},
				],
				default: 'buy',
			},
			networkField({ operation: ['buy'] }),
			{
				displayName: 'Airtime Type',
				name: 'airtimeType',
				type: 'options',
				options: [
					{ name: 'VTU', value: 'VTU', description: 'Direct top-up (minimum ₦50)' },
					{ name: 'Share and Sell', value: 'Share and Sell', description: 'Share-and-sell airtime (minimum ₦100)' },
				],
				default: 'VTU',
				displayOptions: { show: { operation: ['buy'] } },
			},
			{
				displayName: 'Amount (₦)',
				name: 'amount',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 2 },
				default: 100,
				required: true,
				description: 'Face value of the airtime in naira; the wallet is charged the discounted price',
				displayOptions: { show: { operation: ['buy'] } },
			},
			phoneField({ operation: ['buy'] }),
			portedField({ operation: ['buy'] }),
			purchaseOptions({ operation: ['buy'] }),
			...transactionLookupFields({ operation: ['getTransaction'] }),
		],
	};

	methods = {
		loadOptions: { getNetworks: vtuLoadOptions.getNetworks },
		credentialTest: { vtuApiTest },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation === 'buy') {
			return [
				await runPurchases<PurchaseRequest>(this, {
					build: (i) => ({
						product: 'airtime',
						network: idParam(this, 'network', i, 'Network'),
						amount: amountParam(this, 'amount', i, 'Amount'),
						phone: stringParam(this, 'phone', i, 'Phone Number'),
						type: (this.getNodeParameter('airtimeType', i, 'VTU') as 'VTU' | 'Share and Sell'),
						ported: this.getNodeParameter('ported', i, false) as boolean,
					}),
				}),
			];
		}
		return [
			await runEachItem(this, async (i, client) =>
				resultJson(await getTransaction(this, client, 'airtime', i)),
			),
		];
	}
}
