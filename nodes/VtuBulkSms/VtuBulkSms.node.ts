import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { PurchaseResult, SmsPlan } from '../../client/types';
import { vtuApiTest } from '../shared/credentialTest';
import { purchaseOptions } from '../shared/descriptions';
import { refuse } from '../shared/errors';
import { formatNaira } from '../../client/core';
import { naira } from '../shared/format';
import { stringParam } from '../shared/params';
import { runEachItem, runPurchases } from '../shared/runner';

/** A campaign (no `product` key: the client batches only product-less SMS requests). */
interface SmsRequest {
	sender: string;
	message: string;
	recipients: string[];
	dnd: boolean;
}

/** Split "0803…, 0805…\n0807…" into numbers (spaces inside a number are kept for the client). */
export function splitRecipients(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	if (Array.isArray(value)) return value.flatMap((v) => splitRecipients(v));
	if (typeof value === 'object') return [];
	return String(value)
		.split(/[,;\n\r]+/)
		.map((s) => s.trim())
		.filter((s) => s.length > 0);
}

function planJson(p: SmsPlan): IDataObject {
	return {
		sender: p.sender,
		recipientCount: p.recipients.length,
		invalid: p.invalid,
		duplicates: p.duplicates,
		pages: p.pages,
		dnd: p.dnd,
		cost: p.cost.naira,
		batchCount: p.batches.length,
	};
}

function overallStatus(results: PurchaseResult[]): string {
	if (results.length === 0) return 'failed';
	const st = new Set(results.map((r) => r.status));
	if (st.size === 1) return results[0].status;
	if (st.has('processing')) return 'processing';
	return 'partial';
}

export class VtuBulkSms implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'VTU Bulk SMS',
		name: 'vtuBulkSms',
		icon: { light: 'file:vtuBulkSms.svg', dark: 'file:vtuBulkSms.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": bulk SMS"}}',
		description: 'Send bulk SMS campaigns from the wallet of a VTU merchant API and list past batches',
		defaults: { name: 'VTU Bulk SMS' },
		// Not an AI-agent tool, on purpose: one call sends a whole campaign to many numbers.
		// Agents get the small top-ups (VTU Data, VTU Airtime) under a Spend Cap.
		usableAsTool: undefined,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'vtuApi', required: true, testedBy: 'vtuApiTest' }],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
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
				default: 'send',
			},
			{
				displayName: 'Sender ID',
				name: 'sender',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. AdeStores',
				description: 'Name the message comes from (at most 11 characters)',
				displayOptions: { show: { operation: ['send'] } },
			},
			{
				displayName: 'Message',
				name: 'message',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				required: true,
				description: 'Text of the SMS; 160 characters is one page, longer messages cost more pages',
				displayOptions: { show: { operation: ['send'] } },
			},
			{
				displayName: 'Recipients From',
				name: 'recipientsFrom',
				type: 'options',
				options: [
					{
						name: 'A Field (One Campaign per Item)',
						value: 'field',
						description: 'Each input item is a campaign to the numbers in Recipients',
					},
					{
						name: 'All Input Items (One Campaign)',
						value: 'allItems',
						description: 'One campaign to the numbers found in a field of every input item',
					},
				],
				default: 'field',
				displayOptions: { show: { operation: ['send'] } },
			},
			{
				displayName: 'Recipients',
				name: 'recipients',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. 08031234567, 08051234567',
				description: 'Phone numbers separated by commas or new lines (or a list from an expression)',
				displayOptions: { show: { operation: ['send'], recipientsFrom: ['field'] } },
			},
			{
				displayName: 'Phone Field',
				name: 'phoneField',
				type: 'string',
				default: 'phone',
				required: true,
				placeholder: 'e.g. phone',
				description: 'Name of the field that holds the phone number(s) in each input item',
				displayOptions: { show: { operation: ['send'], recipientsFrom: ['allItems'] } },
			},
			{
				displayName: 'DND Route',
				name: 'dnd',
				type: 'boolean',
				default: false,
				description: 'Whether to send through the DND route, which reaches numbers on Do-Not-Disturb at a higher rate',
				displayOptions: { show: { operation: ['send'] } },
			},
			purchaseOptions({ operation: ['send'] }, [
				{
					displayName: 'Batch Size',
					name: 'batchSize',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 10000 },
					default: 500,
					description: 'Recipients per request to the site; a large campaign is sent in several batches',
				},
			]),
			{
				displayName: 'Return All',
				name: 'returnAll',
				type: 'boolean',
				default: false,
				description: 'Whether to return all results or only up to a given limit',
				displayOptions: { show: { operation: ['listBatches'] } },
			},
			{
				displayName: 'Limit',
				name: 'limit',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 50,
				description: 'Max number of results to return',
				displayOptions: { show: { operation: ['listBatches'], returnAll: [false] } },
			},
		],
	};

	methods = { credentialTest: { vtuApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation === 'listBatches') {
			return [
				await runEachItem(this, async (i, client) => {
					const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
					const limit = returnAll ? Infinity : (this.getNodeParameter('limit', i, 50) as number);
					const out: IDataObject[] = [];
					let page: number | null = 1;
					for (let guard = 0; page !== null && out.length < limit && guard < 1000; guard++) {
						const res = await client.sms.history({ page });
						for (const b of res.items) {
							if (out.length >= limit) break;
							out.push({
								ident: b.ident,
								sender: b.sender,
								message: b.message,
								recipients: b.recipients,
								recipientCount: b.recipients.length,
								pages: b.pages,
								amount: b.amount.naira,
								dnd: b.dnd,
								createdAt: b.createdAt,
							});
						}
						page = res.items.length === 0 ? null : res.next;
					}
					return out;
				}),
			];
		}

		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		const batchSize = Math.max(1, Number(options.batchSize ?? 500) || 500);
		const from = this.getNodeParameter('recipientsFrom', 0, 'field') as string;
		const inputCount = this.getInputData().length;

		const buildAt = (i: number, recipients: string[]): SmsRequest => {
			if (recipients.length === 0) {
				throw refuse('invalid_input',
					'No recipients were given',
					from === 'allItems'
						? 'Check Phone Field: it must name a field of the input items that holds phone numbers.'
						: 'Fill in Recipients with numbers separated by commas.',
				);
			}
			return {
				sender: stringParam(this, 'sender', i, 'Sender ID'),
				message: stringParam(this, 'message', i, 'Message'),
				recipients,
				dnd: this.getNodeParameter('dnd', i, false) as boolean,
			};
		};

		const pairedOf =
			from === 'allItems'
				? () => Array.from({ length: inputCount }, (_, item) => ({ item }))
				: (i: number) => ({ item: i });

		return [
			await runPurchases<SmsRequest>(this, {
				clientOptions: batchSize === 500 ? {} : { smsBatchSize: batchSize },
				count: from === 'allItems' ? (inputCount > 0 ? 1 : 0) : inputCount,
				paired: pairedOf,
				build: (i) => {
					if (from === 'allItems') {
						const field = stringParam(this, 'phoneField', 0, 'Phone Field');
						const all = this.getInputData().flatMap((item) => splitRecipients(item.json[field]));
						return buildAt(0, all);
					}
					return buildAt(i, splitRecipients(this.getNodeParameter('recipients', i, '')));
				},
				quote: async (c, req) => {
					const plan = await c.sms.plan(req);
					if (plan.recipients.length === 0) {
						throw refuse('invalid_input', `None of the ${plan.invalid.length} recipients is a Nigerian mobile number`);
					}
					return { kobo: plan.cost.kobo, json: { product: 'sms', price: plan.cost.naira, ...planJson(plan) } };
				},
				execute: async (c, req, opts, i) => {
					const plan = await c.sms.plan(req);
					if (plan.recipients.length === 0) {
						throw refuse('invalid_input', `None of the ${plan.invalid.length} recipients is a Nigerian mobile number`);
					}
					const results = await c.sms.send(req, opts);
					let charged = 0;
					for (const r of results) if (r.status !== 'failed') charged += r.amount.kobo;
					const last = results[results.length - 1];
					return {
						items: [
							{
								pairedItem: pairedOf(i),
								json: {
									status: overallStatus(results),
									...planJson(plan),
									amount: formatNaira(charged),
									balance: last ? naira(last.balanceAfter) : null,
									batches: results.map((r) => ({
										status: r.status,
										path: r.path,
										ident: r.ident,
										id: r.id,
										amount: r.amount.naira,
										recipients: (r.details?.recipients as number | undefined) ?? null,
										pages: (r.details?.pages as number | undefined) ?? null,
										message: r.message,
									})),
								},
							},
						],
						chargedKobo: charged,
					};
				},
			}),
		];
	}
}
