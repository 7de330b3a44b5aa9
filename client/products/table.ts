/**
 * The product table: each product's operations, fields (with their wire names), limits, catalogue source and
 * whether an AI agent may call it, defined once. The request builders (the product modules), the n8n node
 * descriptions (nodes/shared/product.ts), the bot's flows and the error messages all read it from here.
 */
import type { Catalog, Product } from '../types';

/** One operation of a product's n8n node (value = the saved parameter value: never rename one). */
export interface ProductOperation {
	value: string;
	name: string;
	description: string;
	action: string;
}

/** One request field: `label` names it to people (node errors, bot), `wire` is its key in the site's JSON body (null: not sent). */
export interface ProductField {
	label: string;
	wire: string | null;
}

export interface ProductSpec {
	product: Product;
	/** "Exam Pin": the product's name in lists and the node name ("VTU Exam Pin"). */
	title: string;
	/** "exam pin": how a node subtitle names it. */
	noun: string;
	/** The n8n node type name (saved workflows refer to it: never rename). */
	node: string;
	/** One line for the node's description. */
	summary: string;
	/** Purchase endpoint (collection path with trailing slash). */
	path: string;
	/** What `client.catalog` section lists what can be bought, with prices. */
	catalogue: keyof Catalog;
	/**
	 * An AI agent may call the product's node as a tool. Every product is one: n8n's guidance is "when in
	 * doubt, true", and an agent's call meets the same guards as a person's (Spend Cap, Dry Run, the IUC or
	 * meter checked first, one owner per record). n8n's type has no `false`.
	 */
	aiTool: true;
	/** The node's operations in the order n8n lists them; `spend` is the one that debits the wallet. */
	operations: ProductOperation[];
	spend: string;
	fields: Record<string, ProductField>;
}

const getTransaction = (record: string, action: string): ProductOperation => ({
	name: 'Get Transaction',
	value: 'getTransaction',
	description: `Read one ${record} by ID or reference`,
	action,
});

const NETWORK = { label: 'Network', wire: 'network' };
const PHONE = { label: 'Phone Number', wire: 'mobile_number' };
const PORTED = { label: 'Ported Number', wire: 'Ported_number' };

/** Airtime limits in kobo: the site's minimum per type, and a cap of ours (see AIRTIME). */
const AIRTIME_LIMITS = {
	/** ₦50 VTU, ₦100 Share and Sell: the family's server refuses less. */
	minKobo: { VTU: 5_000, 'Share and Sell': 10_000 },
	/** ₦50,000 per top-up: a cap of ours (the family's server states none); typical of the upstream VTU gateways' single top-up limit. */
	maxKobo: 5_000_000,
};

export const PRODUCT_TABLE = {
	data: {
		product: 'data',
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
	},
	airtime: {
		product: 'airtime',
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
	},
	cable: {
		product: 'cable',
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
	},
	electricity: {
		product: 'electricity',
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
			 * ₦500,000 per token: a cap of ours. The family's server and docs state no maximum (docs/real-sites.md §4.4); the cap
			 * stops a typo (an extra zero or five) from spending the wallet on one meter.
			 */
			maxKobo: 50_000_000,
			meterDigits: { min: 6, max: 13 },
		},
	},
	exam_pin: {
		product: 'exam_pin',
		title: 'Exam Pin',
		noun: 'exam pin',
		node: 'vtuExamPin',
		summary: 'Buy WAEC, NECO and NABTEB result checker pins from a VTU merchant API',
		path: '/api/epin/',
		catalogue: 'exams',
		aiTool: true,
		operations: [
			{
				name: 'Buy',
				value: 'buy',
				description: 'Order result checker pins (debits the wallet)',
				action: 'Buy exam pins',
			},
			{
				name: 'Get Order',
				value: 'getOrder',
				description: 'Read one exam pin order with its pins',
				action: 'Get an exam pin order',
			},
		],
		spend: 'buy',
		fields: { exam: { label: 'Exam', wire: 'exam_name' }, quantity: { label: 'Quantity', wire: 'quantity' } },
		limits: { quantity: { min: 1, max: 5 } },
	},
	recharge_card: {
		product: 'recharge_card',
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
	},
	sms: {
		product: 'sms',
		title: 'Bulk SMS',
		noun: 'bulk SMS',
		node: 'vtuBulkSms',
		summary: 'Send bulk SMS campaigns from the wallet of a VTU merchant API and list past batches',
		path: '/api/sendsms/',
		catalogue: 'sms',
		aiTool: true,
		operations: [
			{
				name: 'List Batches',
				value: 'listBatches',
				description: 'List SMS batches sent before, newest first',
				action: 'List bulk SMS batches',
			},
			{
				name: 'Send',
				value: 'send',
				description: 'Send an SMS campaign (debits the wallet per recipient and page)',
				action: 'Send a bulk SMS campaign',
			},
		],
		spend: 'send',
		fields: {
			sender: { label: 'Sender ID', wire: 'sender' },
			message: { label: 'Message', wire: 'message' },
			// sic: the family's server spells it so
			recipients: { label: 'Recipients', wire: 'recetipient' },
			dnd: { label: 'DND Route', wire: 'DND' },
		},
		/** 905 characters = 6 pages, the site's longest message; a sender ID is at most 11 letters or digits. */
		limits: { messageChars: 905, senderChars: 11 },
	},
} satisfies Record<Product, ProductSpec & { limits?: unknown }>;

/** The table's rows (n8n's product dropdowns sort them by title). */
export const PRODUCT_SPECS: ProductSpec[] = Object.values(PRODUCT_TABLE);

/** The site's field name → the client's, for a field error the site reports by its wire name. */
export const FIELD_BY_WIRE: Record<string, string> = Object.fromEntries(
	PRODUCT_SPECS.flatMap((p) => Object.entries(p.fields).flatMap(([field, f]) => (f.wire ? [[f.wire, field]] : []))),
);
