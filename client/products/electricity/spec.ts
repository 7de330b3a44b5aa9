/** The electricity product's table row: its node, operations, fields (with their wire names) and limits. */
import { getTransaction, type ProductSpec } from '../table';

export const ELECTRICITY_SPEC = {
	product: 'electricity' as const,
	namespace: 'electricity',
	title: 'Electricity',
	noun: 'electricity',
	node: 'vtuElectricity',
	summary: 'Validate meters and buy prepaid or postpaid electricity tokens from a VTU merchant API',
	path: '/api/billpayment/',
	catalogue: 'discos',
	aiTool: true,
	operations: [
		{
			name: 'Buy Token',
			value: 'buyToken',
			description: 'Pay electricity for a meter (debits the wallet); the token is in the output',
			action: 'Buy an electricity token',
		},
		getTransaction('electricity payment', 'Get an electricity transaction'),
		{
			name: 'Validate Meter',
			value: 'validateMeter',
			description: 'Check a meter number and get the customer name and address',
			action: 'Validate an electricity meter',
		},
	],
	spend: 'buyToken',
	fields: {
		disco: { label: 'Disco', wire: 'disco_name' },
		meter: { label: 'Meter Number', wire: 'meter_number' },
		meterType: { label: 'Meter Type', wire: 'MeterType' },
		amount: { label: 'Amount', wire: 'amount' },
		phone: { label: 'Customer Phone', wire: 'Customer_Phone' },
	},
	limits: {
		/** ₦500: the site's minimum. */
		minKobo: 50_000,
		/**
		 * ₦500,000 per token: a cap of ours. The family's server and docs state no maximum (docs/real-sites.md §4.4); the
		 * cap stops a typo (an extra zero or five) from spending the wallet on one meter.
		 */
		maxKobo: 50_000_000,
		meterDigits: { min: 6, max: 13 },
	},
} satisfies ProductSpec;
