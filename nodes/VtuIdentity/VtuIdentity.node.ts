import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { IdentityResult } from '../../client/types';
import { refuse } from '../shared/errors';
import { stringParam } from '../shared/params';
import { type NodeSpec, usableAsTool, vtuMethods, vtuNodeBase, vtuProperties, vtuSubtitle } from '../shared/product';
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

const P: NodeSpec = {
	node: 'vtuIdentity',
	title: 'Identity',
	noun: 'identity',
	summary: 'Validate a BVN or NIN through the identity provider of a VTU merchant API',
	// one lookup per call, of a number the user gave: an agent may check who it belongs to
	aiTool: true,
	spend: 'validateBvn',
	operations: [
		{
			name: 'Validate BVN',
			value: 'validateBvn',
			description: 'Check an 11-digit Bank Verification Number and get the holder\'s name',
			action: 'Validate a BVN identity',
		},
		{
			name: 'Validate NIN',
			value: 'validateNin',
			description: 'Check an 11-digit National Identification Number and get the holder\'s name',
			action: 'Validate a NIN identity',
		},
	],
};

export class VtuIdentity implements INodeType {
	description: INodeTypeDescription = {
		...vtuNodeBase(P),
		icon: { light: 'file:vtuIdentity.svg', dark: 'file:vtuIdentity.dark.svg' },
		subtitle: vtuSubtitle(P),
		usableAsTool: usableAsTool(P),
		properties: vtuProperties(P, [
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

	methods = vtuMethods();

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		return [
			await runEachItem(this, async (i, client) => {
				const label = operation === 'validateNin' ? 'NIN' : 'BVN';
				const number = stringParam(this, 'number', i, 'Number').replace(/\s+/g, '');
				if (!/^\d{11}$/.test(number)) {
					throw refuse('invalid_input', `The ${label} "${number}" is not 11 digits`, `Enter the ${label} as 11 digits without spaces or dashes.`);
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
