import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { PurchaseRequest } from '../../client/core';
import { getClient } from '../shared/client';
import { vtuApiTest } from '../shared/credentialTest';
import { purchaseOptions, transactionLookupFields } from '../shared/descriptions';
import { refuse } from '../shared/errors';
import { resultJson } from '../shared/format';
import { vtuLoadOptions } from '../shared/loadOptions';
import { getTransaction } from '../shared/operations';
import { amountParam, idParam, stringParam } from '../shared/params';
import { runEachItem, runPurchases } from '../shared/runner';

const show = (...operation: string[]) => ({ show: { operation } });

export class VtuElectricity implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VTU Electricity',
		name: 'vtuElectricity',
		icon: { light: 'file:vtuElectricity.svg', dark: 'file:vtuElectricity.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": electricity"}}',
		description: 'Validate meters and buy prepaid or postpaid electricity tokens from a VTU merchant API',
		defaults: { name: 'VTU Electricity' },
		// Not an AI-agent tool, on purpose: a token bought for a wrong meter pays someone else's bill and
		// cannot be reversed. Agents get the small top-ups (VTU Data, VTU Airtime) under a Spend Cap.
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
						name: 'Buy Token',
						value: 'buyToken',
						description: 'Pay electricity for a meter (debits the wallet); the token is in the output',
						action: 'Buy an electricity token',
					},
					{
						name: 'Get Transaction',
						value: 'getTransaction',
						description: 'Read one electricity payment by ID or reference',
						action: 'Get an electricity transaction',
					},
					{
						name: 'Validate Meter',
						value: 'validateMeter',
						description: 'Check a meter number and get the customer name and address',
						action: 'Validate an electricity meter',
					},
				],
				default: 'buyToken',
			},
			{
				displayName: 'Disco Name or ID',
				name: 'disco',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getDiscos' },
				default: '',
				required: true,
				description:
					'Electricity distribution company. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: show('buyToken', 'validateMeter'),
			},
			{
				displayName: 'Meter Type',
				name: 'meterType',
				type: 'options',
				options: [
					{ name: 'Prepaid', value: 'prepaid' },
					{ name: 'Postpaid', value: 'postpaid' },
				],
				default: 'prepaid',
				displayOptions: show('buyToken', 'validateMeter'),
			},
			{
				displayName: 'Meter Number',
				name: 'meter',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. 45031234567',
				displayOptions: show('buyToken', 'validateMeter'),
			},
			{
				displayName: 'Amount (₦)',
				name: 'amount',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 2 },
				default: 1000,
				required: true,
				description: 'Amount of electricity to buy in naira (the site minimum is usually ₦500)',
				displayOptions: show('buyToken'),
			},
			{
				displayName: 'Customer Phone',
				name: 'phone',
				type: 'string',
				default: '',
				placeholder: 'e.g. 08031234567',
				description: 'Optional phone number that receives the token by SMS',
				displayOptions: show('buyToken'),
			},
			purchaseOptions({ operation: ['buyToken'] }, [
				{
					displayName: 'Validate Meter First',
					name: 'validateFirst',
					type: 'boolean',
					default: true,
					description: 'Whether to check the meter number before paying and refuse the item when it is invalid',
				},
			]),
			...transactionLookupFields({ operation: ['getTransaction'] }),
		],
	};

	methods = {
		loadOptions: { getDiscos: vtuLoadOptions.getDiscos },
		credentialTest: { vtuApiTest },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		const meterInput = (i: number) => ({
			disco: idParam(this, 'disco', i, 'Disco'),
			meter: stringParam(this, 'meter', i, 'Meter Number'),
			meterType: this.getNodeParameter('meterType', i, 'prepaid') as 'prepaid' | 'postpaid',
		});
		if (operation === 'validateMeter') {
			return [
				await runEachItem(this, async (i, client) => {
					const input = meterInput(i);
					const v = await client.electricity.validate(input);
					return {
						valid: v.valid,
						customerName: v.name,
						address: v.address ?? null,
						meter: input.meter,
						meterType: input.meterType,
						disco: input.disco,
					} as IDataObject;
				}),
			];
		}
		if (operation === 'buyToken') {
			const options = this.getNodeParameter('options', 0, {}) as IDataObject;
			const validateFirst = options.validateFirst !== false;
			const client = await getClient(this);
			return [
				await runPurchases<PurchaseRequest>(this, {
					build: async (i) => {
						const input = meterInput(i);
						if (validateFirst) {
							const v = await client.electricity.validate(input);
							if (!v.valid) {
								throw refuse('invalid_input',
									`Meter ${input.meter} is not valid for this disco and meter type${v.name ? ` (the site said: ${v.name})` : ''}; nothing was paid`,
									'Check the meter number, disco and meter type, or turn off the Validate Meter First option.',
								);
							}
						}
						const phone = stringParam(this, 'phone', i, 'Customer Phone', false);
						return {
							product: 'electricity',
							...input,
							amount: amountParam(this, 'amount', i, 'Amount'),
							...(phone ? { phone } : {}),
						};
					},
				}),
			];
		}
		return [
			await runEachItem(this, async (i, c) => resultJson(await getTransaction(this, c, 'electricity', i))),
		];
	}
}
