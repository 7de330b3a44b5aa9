/** The recharge_card product's table row: its node, operations, fields (with their wire names) and limits. */
import { NETWORK, type ProductSpec } from '../table';

export const RECHARGE_CARD_SPEC = {
	product: 'recharge_card' as const,
	namespace: 'rechargeCards',
	title: 'Recharge Card',
	noun: 'recharge cards',
	node: 'vtuRechargeCard',
	summary: 'Order printable recharge card pins from a VTU merchant API (pins as items, CSV or print-ready HTML)',
	path: '/api/rechargepin/',
	catalogue: 'recharge',
	aiTool: true,
	operations: [
		{
			name: 'Order',
			value: 'order',
			description: 'Order printable recharge cards (debits the wallet)',
			action: 'Order recharge cards',
		},
	],
	spend: 'order',
	fields: {
		network: NETWORK,
		denomination: { label: 'Denomination', wire: 'network_amount' },
		quantity: { label: 'Quantity', wire: 'quantity' },
		nameOnCard: { label: 'Name on Card', wire: 'name_on_card' },
	},
	limits: { quantity: { min: 1, max: 39 }, nameOnCardChars: 50 },
} satisfies ProductSpec;
