/** The sms product's table row: its node, operations, fields (with their wire names) and limits. */
import type { ProductSpec } from '../table';

export const SMS_SPEC = {
	product: 'sms' as const,
	namespace: 'sms',
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
	batch: true,
	fields: {
		sender: { label: 'Sender ID', wire: 'sender' },
		message: { label: 'Message', wire: 'message' },
		// sic: the family's server spells it so
		recipients: { label: 'Recipients', wire: 'recetipient' },
		dnd: { label: 'DND Route', wire: 'DND' },
	},
	/** 905 characters = 6 pages, the site's longest message; a sender ID is at most 11 letters or digits. */
	limits: { messageChars: 905, senderChars: 11 },
} satisfies ProductSpec;
