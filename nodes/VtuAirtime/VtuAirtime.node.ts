import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { PurchaseRequest } from '../../client/core';
import { PRODUCT_TABLE } from '../../client/products/registry';
import { networkField, phoneField, portedField, purchaseOptions } from '../shared/descriptions';
import { amountParam, booleanParam, idParam, stringParam } from '../shared/params';
import { getTransactionOutput, limitText, productNode, spending } from '../shared/product';
import { runPurchases } from '../shared/runner';

const P = PRODUCT_TABLE.airtime;
const N = productNode(P);

export class VtuAirtime implements INodeType {
	description: INodeTypeDescription = {
		...N.base,
		// literal for n8n lint: icon-validation, require-node-description-fields, node-usable-as-tool
		icon: { light: 'file:vtuAirtime.svg', dark: 'file:vtuAirtime.dark.svg' },
		subtitle: N.subtitle,
		usableAsTool: N.usableAsTool,
		properties: N.properties([
			networkField(spending(P)),
			{
				displayName: P.fields.type.label,
				name: 'airtimeType',
				type: 'options',
				options: [
					{ name: 'VTU', value: 'VTU', description: `Direct top-up (minimum ${limitText(P.limits.minKobo.VTU)})` },
					{
						name: 'Share and Sell',
						value: 'Share and Sell',
						description: `Share-and-sell airtime (minimum ${limitText(P.limits.minKobo['Share and Sell'])})`,
					},
				],
				default: 'VTU',
				displayOptions: { show: spending(P) },
			},
			{
				displayName: 'Amount (₦)',
				name: 'amount',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 2 },
				default: 100,
				required: true,
				description: 'Face value of the airtime in naira; the wallet is charged the discounted price',
				displayOptions: { show: spending(P) },
			},
			phoneField(spending(P)),
			portedField(spending(P)),
			purchaseOptions(spending(P)),
		]),
	};

	methods = N.methods('getNetworks');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (this.getNodeParameter('operation', 0) !== P.spend) return await getTransactionOutput(this, P.product);
		return [
			await runPurchases<PurchaseRequest>(this, {
				build: (i) => ({
					product: P.product,
					network: idParam(this, 'network', i, P.fields.network.label),
					amount: amountParam(this, 'amount', i, P.fields.amount.label),
					phone: stringParam(this, 'phone', i, P.fields.phone.label),
					type: this.getNodeParameter('airtimeType', i, 'VTU') as 'VTU' | 'Share and Sell',
					ported: booleanParam(this, 'ported', i),
				}),
			}),
		];
	}
}
