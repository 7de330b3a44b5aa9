import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { PRODUCT_TABLE } from '../../client/products/registry';
import { catalogueField, purchaseOptions } from '../shared/descriptions';
import { amountParam, idParam, stringParam } from '../shared/params';
import {
	getTransactionOutput,
	limitText,
	productNode,
	spending,
	validatedPurchases,
	validateFirstOption,
} from '../shared/product';
import { runEachItem } from '../shared/runner';

/** The fields that name the meter: shown when buying a token and when validating a meter. */
const meterOps = { operation: ['buyToken', 'validateMeter'] };

const P = PRODUCT_TABLE.electricity;
const N = productNode(P);

export class VtuElectricity implements INodeType {
	description: INodeTypeDescription = {
		...N.base,
		// literal for n8n lint: icon-validation, require-node-description-fields, node-usable-as-tool
		icon: { light: 'file:vtuElectricity.svg', dark: 'file:vtuElectricity.dark.svg' },
		subtitle: N.subtitle,
		usableAsTool: N.usableAsTool,
		properties: N.properties([
			catalogueField('disco', P.fields.disco.label, 'Electricity distribution company', meterOps, 'getDiscos'),
			// a literal: n8n-nodes-base's node-param-* rules check a parameter only as one
			{
				displayName: 'Meter Type',
				name: 'meterType',
				type: 'options',
				options: [
					{ name: 'Prepaid', value: 'prepaid' },
					{ name: 'Postpaid', value: 'postpaid' },
				],
				default: 'prepaid',
				displayOptions: { show: meterOps },
			},
			{
				displayName: 'Meter Number',
				name: 'meter',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. 45031234567',
				displayOptions: { show: meterOps },
			},
			{
				displayName: 'Amount (₦)',
				name: 'amount',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 2 },
				default: 1000,
				required: true,
				description: `Amount of electricity to buy in naira (the site minimum is usually ${limitText(P.limits.minKobo)})`,
				displayOptions: { show: spending(P) },
			},
			{
				displayName: 'Customer Phone',
				name: 'phone',
				type: 'string',
				default: '',
				placeholder: 'e.g. 08031234567',
				description: 'Optional phone number that receives the token by SMS',
				displayOptions: { show: spending(P) },
			},
			purchaseOptions({ operation: ['buyToken'] }, [validateFirstOption('Validate Meter First', 'meter number')]),
		]),
	};

	methods = N.methods('getDiscos');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		const meterInput = (i: number) => ({
			disco: idParam(this, 'disco', i, P.fields.disco.label),
			meter: stringParam(this, 'meter', i, P.fields.meter.label),
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
			return await validatedPurchases(this, {
				input: meterInput,
				validate: (client, input) => client.electricity.validate(input),
				refusal: (input, siteSaid) => ({
					message: `Meter ${input.meter} is not valid for this disco and meter type${siteSaid}; nothing was paid`,
					hint: 'Check the meter number, disco and meter type, or turn off the Validate Meter First option.',
				}),
				request: (input, i) => {
					const phone = stringParam(this, 'phone', i, P.fields.phone.label, false);
					return {
						product: P.product,
						...input,
						amount: amountParam(this, 'amount', i, P.fields.amount.label),
						...(phone ? { phone } : {}),
					};
				},
			});
		}
		return await getTransactionOutput(this, P.product);
	}
}
