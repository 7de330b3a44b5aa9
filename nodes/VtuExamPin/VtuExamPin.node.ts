import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { PurchaseRequest } from '../../client/core';
import { PRODUCT_TABLE } from '../../client/products/registry';
import { catalogueField, purchaseOptions, quantityField } from '../shared/descriptions';
import { refuse } from '../shared/errors';
import { resultJson } from '../shared/format';
import { idParam, positiveIntParam, stringParam } from '../shared/params';
import { productNode, spending } from '../shared/product';
import { runEachItem, runPurchases } from '../shared/runner';

const P = PRODUCT_TABLE.exam_pin;
const N = productNode(P);

export class VtuExamPin implements INodeType {
	description: INodeTypeDescription = {
		...N.base,
		// literal for n8n lint: icon-validation, require-node-description-fields, node-usable-as-tool
		icon: { light: 'file:vtuExamPin.svg', dark: 'file:vtuExamPin.dark.svg' },
		subtitle: N.subtitle,
		usableAsTool: N.usableAsTool,
		properties: N.properties([
			catalogueField(
				'exam',
				P.fields.exam.label,
				'WAEC, NECO or NABTEB, with your price per pin',
				spending(P),
				'getExams',
			),
			quantityField(
				P.fields.quantity.label,
				P.limits.quantity,
				`Number of pins in this order (the site allows ${P.limits.quantity.min} to ${P.limits.quantity.max})`,
				spending(P),
			),
			purchaseOptions(spending(P)),
			{
				displayName: 'Order ID',
				name: 'orderId',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. 42',
				description: 'The "ID" returned by the purchase',
				displayOptions: { show: { operation: ['getOrder'] } },
			},
		]),
	};

	methods = N.methods('getExams');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (this.getNodeParameter('operation', 0) === P.spend) {
			return [
				await runPurchases<PurchaseRequest>(this, {
					// The exam is checked against the site's own exam list (the catalogue) when the item is priced.
					build: (i) => ({
						product: P.product,
						exam: String(idParam(this, 'exam', i, P.fields.exam.label)),
						quantity: positiveIntParam(this, 'quantity', i, P.fields.quantity.label),
					}),
				}),
			];
		}
		return [
			await runEachItem(this, async (i, client) => {
				const id = stringParam(this, 'orderId', i, 'Order ID');
				if (!/^\d+$/.test(id)) throw refuse('invalid_input', `"${id}" is not a numeric order ID`);
				return resultJson(await client.examPins.get(Number(id)));
			}),
		];
	}
}
