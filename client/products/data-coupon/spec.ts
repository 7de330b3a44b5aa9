/** The data coupon product's table row: sold from the VTU Data node (Buy Coupon). */
import { NETWORK, type ProductSpec } from '../table';

export const DATA_COUPON_SPEC = {
	product: 'data_coupon' as const,
	namespace: 'dataCoupons',
	title: 'Data Coupon',
	noun: 'data coupons',
	// an operation of the VTU Data node: the same networks and plans, printed as pins instead of sent
	node: 'vtuData',
	summary: 'Buy printable data coupons (pins that load a data plan) from a VTU merchant API',
	path: '/api/data_pin/',
	/** The same product's route on other builds (husmodata), tried when the site has no /api/data_pin/. */
	routes: ['/api/datarechargepin/'],
	catalogue: 'networks',
	aiTool: true,
	operations: [
		{
			name: 'Buy Coupon',
			value: 'buyCoupon',
			description: 'Buy printable data coupons for a plan (debits the wallet); the pins are in the output',
			action: 'Buy data coupons',
		},
	],
	spend: 'buyCoupon',
	fields: {
		// sent by name ("MTN"): the data_pin view looks the network up by name, unlike /api/data/
		network: { ...NETWORK },
		plan: { label: 'Plan', wire: 'data_plan' },
		quantity: { label: 'Quantity', wire: 'quantity' },
		nameOnCard: { label: 'Name on Card', wire: 'name_on_card' },
	},
	/** 1–39 coupons per order, as recharge cards (no build states its own); a name on card of 50 characters. */
	limits: { quantity: { min: 1, max: 39 }, nameOnCardChars: 50 },
} satisfies ProductSpec;
