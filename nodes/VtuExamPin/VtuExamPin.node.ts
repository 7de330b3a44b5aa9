import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { PurchaseRequest } from '../../client/core';
import { vtuApiTest } from '../shared/credentialTest';
import { purchaseOptions } from '../shared/descriptions';
import { refuse } from '../shared/errors';
import { resultJson } from '../shared/format';
import { vtuLoadOptions } from '../shared/loadOptions';
import { idParam, positiveIntParam, stringParam } from '../shared/params';
import { runEachItem, runPurchases } from '../shared/runner';

const EXAMS = ['WAEC', 'NECO', 'NABTEB'] as const;

export class VtuExamPin implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VTU Exam Pin',
		name: 'vtuExamPin',
		icon: { light: 'file:vtuExamPin.svg', dark: 'file:vtuExamPin.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": exam pin"}}',
		description: 'Buy WAEC, NECO and NABTEB result checker pins from a VTU merchant API',
		defaults: { name: 'VTU Exam Pin' },
		// Not an AI-agent tool, on purpose: exam pins are cash-like and cannot be returned.
		// Agents get the small top-ups (VTU Data, VTU Airtime) under a Spend Cap.
		usableAsTool: undefined,
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
						description: 'Order result checker pins (debits the wallet)',
						action: 'Buy exam pins',
					},
					{
						name: 'Get Order',
						value: 'getOrder',
						description: 'Read one exam pin order with its pins',
						action: 'Get an exam pin order',
					},
				],
				default: 'buy',
			},
			{
				displayName: 'Exam Name or ID',
				name: 'exam',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getExams' },
				default: '',
				required: true,
				description:
					'WAEC, NECO or NABTEB, with your price per pin. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: { show: { operation: ['buy'] } },
			},
			{
				displayName: 'Quantity',
				name: 'quantity',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 5 },
				default: 1,
				description: 'Number of pins in this order (the site allows 1 to 5)',
				displayOptions: { show: { operation: ['buy'] } },
			},
			purchaseOptions({ operation: ['buy'] }),
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
		],
	};

	methods = {
		loadOptions: { getExams: vtuLoadOptions.getExams },
		credentialTest: { vtuApiTest },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation === 'buy') {
			return [
				await runPurchases<PurchaseRequest>(this, {
					build: (i) => {
						const exam = String(idParam(this, 'exam', i, 'Exam')).toUpperCase();
						if (!(EXAMS as readonly string[]).includes(exam)) {
							throw refuse('invalid_input', `Exam "${exam}" is not one of WAEC, NECO or NABTEB`);
						}
						return {
							product: 'exam_pin',
							exam: exam as (typeof EXAMS)[number],
							quantity: positiveIntParam(this, 'quantity', i, 'Quantity'),
						};
					},
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
