import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { PurchaseRequest } from '../../client/core';
import { vtuApiTest } from '../shared/credentialTest';
import { purchaseOptions, transactionLookupFields } from '../shared/descriptions';
import { refuse } from '../shared/errors';
import { resultJson } from '../shared/format';
import { vtuLoadOptions } from '../shared/loadOptions';
import { getTransaction } from '../shared/operations';
import { idParam, stringParam } from '../shared/params';
import { runEachItem, runPurchases } from '../shared/runner';
import { getClient } from '../shared/client';

export class VtuCableTv implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VTU Cable TV',
		name: 'vtuCableTv',
		icon: { light: 'file:vtuCableTv.svg', dark: 'file:vtuCableTv.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": cable TV"}}',
		description: 'Validate IUC numbers and pay GOTV, DSTV and Startimes subscriptions from a VTU merchant API',
		defaults: { name: 'VTU Cable TV' },
		// Not an AI-agent tool, on purpose: a subscription paid to a wrong IUC cannot be reversed.
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
						name: 'Get Transaction',
						value: 'getTransaction',
						description: 'Read one cable subscription by ID or reference',
						action: 'Get a cable TV transaction',
					},
					{
						name: 'Subscribe',
						value: 'subscribe',
						description: 'Pay a cable TV package for a smart card (debits the wallet)',
						action: 'Subscribe a cable TV package',
					},
					{
						name: 'Validate IUC',
						value: 'validateIuc',
						description: 'Check a smart card / IUC number and get the customer name',
						action: 'Validate a cable TV IUC number',
					},
				],
				default: 'subscribe',
			},
			{
				displayName: 'Provider Name or ID',
				name: 'provider',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getCableProviders' },
				default: '',
				required: true,
				description:
					'GOTV, DSTV or Startimes. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: { show: { operation: ['subscribe', 'validateIuc'] } },
			},
			{
				displayName: 'Package Name or ID',
				name: 'package',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getCablePackages', loadOptionsDependsOn: ['provider'] },
				default: '',
				required: true,
				description:
					'Package of the chosen provider with your price. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: { show: { operation: ['subscribe'] } },
			},
			{
				displayName: 'IUC / Smart Card Number',
				name: 'iuc',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. 7027914329',
				displayOptions: { show: { operation: ['subscribe', 'validateIuc'] } },
			},
			{
				displayName: 'Customer Phone',
				name: 'phone',
				type: 'string',
				default: '',
				placeholder: 'e.g. 08031234567',
				description: 'Optional phone number of the subscriber',
				displayOptions: { show: { operation: ['subscribe'] } },
			},
			purchaseOptions({ operation: ['subscribe'] }, [
				{
					displayName: 'Validate IUC First',
					name: 'validateFirst',
					type: 'boolean',
					default: true,
					description: 'Whether to check the IUC number before paying and refuse the item when it is invalid',
				},
			]),
			...transactionLookupFields({ operation: ['getTransaction'] }),
		],
	};

	methods = {
		loadOptions: {
			getCableProviders: vtuLoadOptions.getCableProviders,
			getCablePackages: vtuLoadOptions.getCablePackages,
		},
		credentialTest: { vtuApiTest },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation === 'validateIuc') {
			return [
				await runEachItem(this, async (i, client) => {
					const provider = idParam(this, 'provider', i, 'Provider');
					const iuc = stringParam(this, 'iuc', i, 'IUC / Smart Card Number');
					const v = await client.cable.validate({ provider, iuc });
					return { valid: v.valid, customerName: v.name, iuc, provider } as IDataObject;
				}),
			];
		}
		if (operation === 'subscribe') {
			const options = this.getNodeParameter('options', 0, {}) as IDataObject;
			const validateFirst = options.validateFirst !== false;
			const client = await getClient(this);
			return [
				await runPurchases<PurchaseRequest>(this, {
					build: async (i) => {
						const provider = idParam(this, 'provider', i, 'Provider');
						const iuc = stringParam(this, 'iuc', i, 'IUC / Smart Card Number');
						if (validateFirst) {
							const v = await client.cable.validate({ provider, iuc });
							if (!v.valid) {
								throw refuse('invalid_input',
									`IUC number ${iuc} is not valid for this provider${v.name ? ` (the site said: ${v.name})` : ''}; nothing was paid`,
									'Check the smart card number and the provider, or turn off the Validate IUC First option.',
								);
							}
						}
						const phone = stringParam(this, 'phone', i, 'Customer Phone', false);
						return {
							product: 'cable',
							provider,
							package: Number(idParam(this, 'package', i, 'Package')),
							iuc,
							...(phone ? { phone } : {}),
						};
					},
				}),
			];
		}
		return [
			await runEachItem(this, async (i, c) => resultJson(await getTransaction(this, c, 'cable', i))),
		];
	}
}
