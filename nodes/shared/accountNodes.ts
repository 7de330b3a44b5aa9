/**
 * The VTU nodes that are not products (the product registry, client/products/registry.ts, has the others): the
 * account's wallet, identity lookups and transactions.
 */
import { PRODUCT_SPECS } from '../../client/products/registry';
import type { NodeSpec } from './product';

/** Operation → the number it checks: its short name and its words. */
export const IDENTITY_KINDS: Record<string, [string, string]> = {
	validateBvn: ['BVN', 'Bank Verification Number'],
	validateNin: ['NIN', 'National Identification Number'],
};

export const ACCOUNT_NODES = {
	wallet: {
		node: 'vtuWallet',
		title: 'Wallet',
		noun: 'wallet',
		summary: 'Read the wallet balance, history, account profile and your prices from a VTU merchant API',
		// read-only: an agent may check the balance and prices before it buys
		aiTool: true,
		spend: 'getProfile',
		operations: [
			{
				name: 'Get Balance',
				value: 'getBalance',
				description: 'Get the wallet balance',
				action: 'Get the wallet balance',
			},
			{
				name: 'Get History',
				value: 'getHistory',
				description: 'List the wallet history (debits, refunds, funding), newest first, where the site has one',
				action: 'Get the wallet history',
			},
			{
				name: 'Get Prices',
				value: 'getPrices',
				description: `List your prices for ${PRODUCT_SPECS.map((p) => p.noun).join(', ')}`,
				action: 'Get wallet prices',
			},
			{
				name: 'Get Profile',
				value: 'getProfile',
				description: 'Get the account profile with its balance and account type',
				action: 'Get the wallet profile',
			},
		],
	},
	identity: {
		node: 'vtuIdentity',
		title: 'Identity',
		noun: 'identity',
		summary: 'Validate a BVN or NIN through the identity provider of a VTU merchant API',
		// one lookup per call, of a number the user gave: an agent may check who it belongs to
		aiTool: true,
		spend: 'validateBvn',
		operations: Object.entries(IDENTITY_KINDS).map(([value, [kind, words]]) => ({
			name: `Validate ${kind}`,
			value,
			description: `Check an 11-digit ${words} and get the holder's name`,
			action: `Validate a ${kind} identity`,
		})),
	},
	transaction: {
		node: 'vtuTransaction',
		title: 'Transaction',
		noun: 'transaction',
		summary: 'Look up any VTU purchase by ID or reference, list recent ones, or settle an unclear one',
		subtitle:
			'={{$parameter["operation"] === "resolveUnclear" ? "resolve unclear purchase" : ' +
			'$parameter["operation"] + ": " + $parameter["product"]}}',
		// read-only: an agent may check what a purchase became
		aiTool: true,
		spend: 'get',
		operations: [
			{ name: 'Get', value: 'get', description: 'Get one transaction by ID or reference', action: 'Get a transaction' },
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the newest transactions of a product',
				action: 'Get many transactions',
			},
			{
				name: 'Resolve Unclear Purchase',
				value: 'resolveUnclear',
				description:
					'Settle an "unknown outcome" item of a buying node: bought (with its record), not bought ' +
					'(proven), or still unclear (with when to try again). Never buys.',
				action: 'Resolve an unclear purchase',
			},
		],
	},
} satisfies Record<string, NodeSpec>;
