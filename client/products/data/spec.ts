/** The data product's table row: its node, operations, fields (with their wire names) and limits. */
import { getTransaction, NETWORK, PHONE, PORTED, type ProductSpec } from '../table';

export const DATA_SPEC = {
	product: 'data' as const,
	namespace: 'data',
	title: 'Data',
	noun: 'data',
	node: 'vtuData',
	summary: 'Buy mobile data bundles (SME, gifting, CG, awoof, data share) from a VTU merchant API',
	path: '/api/data/',
	catalogue: 'networks',
	aiTool: true,
	operations: [
		{
			name: 'Buy',
			value: 'buy',
			description: 'Buy a data bundle for a phone number (debits the wallet)',
			action: 'Buy data',
		},
		getTransaction('data purchase', 'Get a data transaction'),
		{
			name: 'List Plans',
			value: 'listPlans',
			description: 'List the data plans of a network with your prices',
			action: 'List data plans',
		},
	],
	spend: 'buy',
	fields: { network: NETWORK, plan: { label: 'Plan', wire: 'plan' }, phone: PHONE, ported: PORTED },
} satisfies ProductSpec;
