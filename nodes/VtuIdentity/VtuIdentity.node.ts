import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { IdentityResult } from '../../client/types';
import { refuse } from '../shared/errors';
import { stringParam } from '../shared/params';
import { ACCOUNT_NODES, IDENTITY_KINDS } from '../shared/accountNodes';
import { productNode } from '../shared/product';
import { runEachItem } from '../shared/runner';

function identityJson(r: IdentityResult): IDataObject {
	return {
		valid: r.valid,
		kind: r.kind,
		number: r.number,
		firstName: r.firstName,
		middleName: r.middleName,
		lastName: r.lastName,
		fullName: r.fullName,
		phone: r.phone,
		provider: r.provider,
	};
}

const P = ACCOUNT_NODES.identity;
const N = productNode(P);

export class VtuIdentity implements INodeType {
	description: INodeTypeDescription = {
		...N.base,
		// literal for n8n lint: icon-validation, require-node-description-fields, node-usable-as-tool
		icon: { light: 'file:vtuIdentity.svg', dark: 'file:vtuIdentity.dark.svg' },
		subtitle: N.subtitle,
		usableAsTool: N.usableAsTool,
		properties: N.properties([
			{
				displayName: 'Number',
				name: 'number',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. 22212345678',
				description: 'The 11-digit BVN or NIN (no date of birth needed)',
			},
		]),
	};

	methods = N.methods();

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		return [
			await runEachItem(this, async (i, client) => {
				const [label] = IDENTITY_KINDS[operation] ?? IDENTITY_KINDS.validateBvn;
				const number = stringParam(this, 'number', i, 'Number').replace(/\s+/g, '');
				if (!/^\d{11}$/.test(number)) {
					throw refuse(
						'invalid_input',
						`The ${label} "${number}" is not 11 digits`,
						`Enter the ${label} as 11 digits without spaces or dashes.`,
					);
				}
				const r =
					operation === 'validateNin'
						? await client.identity.validateNin(number)
						: await client.identity.validateBvn(number);
				return identityJson(r);
			}),
		];
	}
}
