/** The airtime product's table row: its node, operations, fields (with their wire names) and limits. */
import { getTransaction, NETWORK, PHONE, PORTED, type ProductSpec } from '../table';

/** Airtime limits in kobo: the site's minimum per type, and a cap of ours (see AIRTIME). */
const AIRTIME_LIMITS = {
	/** ₦50 VTU, ₦100 Share and Sell: the family's server refuses less. */
	minKobo: { VTU: 5_000, 'Share and Sell': 10_000 },
	/**
	 * ₦50,000 per top-up: a cap of ours (the family's server states none); typical of the upstream VTU gateways' single
	 * top-up limit.
	 */
	maxKobo: 5_000_000,
};

export const AIRTIME_SPEC = {
	product: 'airtime' as const,
	namespace: 'airtime',
	title: 'Airtime',
	noun: 'airtime',
	node: 'vtuAirtime',
	summary: 'Top up airtime (VTU or Share and Sell) from a VTU merchant API',
	path: '/api/topup/',
	catalogue: 'airtime',
	aiTool: true,
	operations: [
		{
			name: 'Buy',
			value: 'buy',
			description: 'Top up airtime on a phone number (debits the wallet)',
			action: 'Buy airtime',
		},
		getTransaction('airtime top-up', 'Get an airtime transaction'),
	],
	spend: 'buy',
	fields: {
		network: NETWORK,
		amount: { label: 'Amount', wire: 'amount' },
		phone: PHONE,
		type: { label: 'Airtime Type', wire: 'airtime_type' },
		ported: PORTED,
	},
	limits: AIRTIME_LIMITS,
} satisfies ProductSpec;
