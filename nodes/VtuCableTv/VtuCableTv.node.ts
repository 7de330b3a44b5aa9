import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { PRODUCT_TABLE } from '../../client/products/registry';
import { catalogueField, purchaseOptions } from '../shared/descriptions';
import { catalogueIdParam, idParam, stringParam } from '../shared/params';
import { getTransactionOutput, productNode, validatedPurchases, validateFirstOption } from '../shared/product';
import { runEachItem } from '../shared/runner';

const P = PRODUCT_TABLE.cable;
const N = productNode(P);

export class VtuCableTv implements INodeType {
	description: INodeTypeDescription = {
		...N.base,
		// literal for n8n lint: icon-validation, require-node-description-fields, node-usable-as-tool
		icon: { light: 'file:vtuCableTv.svg', dark: 'file:vtuCableTv.dark.svg' },
		subtitle: N.subtitle,
		usableAsTool: N.usableAsTool,
		properties: N.properties([
			catalogueField(
				'provider',
				P.fields.provider.label,
				'GOTV, DSTV or Startimes',
				{ operation: ['subscribe', 'validateIuc'] },
				'getCableProviders',
			),
			catalogueField(
				'package',
				P.fields.package.label,
				'Package of the chosen provider with your price',
				{ operation: ['subscribe'] },
				'getCablePackages',
				['provider'],
			),
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
			purchaseOptions({ operation: ['subscribe'] }, [validateFirstOption('Validate IUC First', 'IUC number')]),
		]),
	};

	methods = N.methods('getCableProviders', 'getCablePackages');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation === 'validateIuc') {
			return [
				await runEachItem(this, async (i, client) => {
					const provider = idParam(this, 'provider', i, P.fields.provider.label);
					const iuc = stringParam(this, 'iuc', i, P.fields.iuc.label);
					const v = await client.cable.validate({ provider, iuc });
					return { valid: v.valid, customerName: v.name, iuc, provider } as IDataObject;
				}),
			];
		}
		if (operation === P.spend) {
			return await validatedPurchases(this, {
				input: (i) => ({
					provider: idParam(this, 'provider', i, P.fields.provider.label),
					iuc: stringParam(this, 'iuc', i, P.fields.iuc.label),
				}),
				validate: (client, input) => client.cable.validate(input),
				refusal: (input, siteSaid) => ({
					message: `IUC number ${input.iuc} is not valid for this provider${siteSaid}; nothing was paid`,
					hint: 'Check the smart card number and the provider, or turn off the Validate IUC First option.',
				}),
				request: (input, i) => {
					const phone = stringParam(this, 'phone', i, P.fields.phone.label, false);
					return {
						product: P.product,
						...input,
						package: catalogueIdParam(this, 'package', i, P.fields.package.label, 'the package ID from the list'),
						...(phone ? { phone } : {}),
					};
				},
			});
		}
		return await getTransactionOutput(this, P.product);
	}
}
