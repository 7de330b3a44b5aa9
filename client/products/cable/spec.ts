/** The cable product's table row: its node, operations, fields (with their wire names) and limits. */
import { getTransaction, type ProductSpec } from '../table';

export const CABLE_SPEC = {
	product: 'cable' as const,
	namespace: 'cable',
	title: 'Cable TV',
	noun: 'cable TV',
	node: 'vtuCableTv',
	summary: 'Validate IUC numbers and pay GOTV, DSTV and Startimes subscriptions from a VTU merchant API',
	path: '/api/cablesub/',
	catalogue: 'cable',
	aiTool: true,
	operations: [
		getTransaction('cable subscription', 'Get a cable TV transaction'),
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
	spend: 'subscribe',
	fields: {
		provider: { label: 'Provider', wire: 'cablename' },
		package: { label: 'Package', wire: 'cableplan' },
		iuc: { label: 'IUC / Smart Card Number', wire: 'smart_card_number' },
		// checked, not sent: the family's cablesub takes no phone
		phone: { label: 'Customer Phone', wire: null },
	},
	limits: { iucDigits: { min: 8, max: 12 } },
} satisfies ProductSpec;
