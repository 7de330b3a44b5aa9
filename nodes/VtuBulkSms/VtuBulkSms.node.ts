import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { formatNaira, type VtuClient } from '../../client/core';
import type { BuyOptions } from '../../client/types';
import { checkSender } from '../../client/products/sms/plan';
import { PRODUCT_TABLE } from '../../client/products/registry';
import { limitField, purchaseOptions } from '../shared/descriptions';
import { NOT_CHARGED_CODES } from '../../client/errors';
import { getVtuCredentials } from '../shared/client';
import { refuse } from '../shared/errors';
import { unclearFacts } from '../shared/unclear';
import { countText, naira } from '../shared/format';
import { booleanParam, itemParam, stringParam } from '../shared/params';
import { productNode, spending } from '../shared/product';
import { START_CONCURRENCY } from '../shared/concurrency';
import { readPurchaseOptions, runEachItem, runPool, runPurchases } from '../shared/runner';
import {
	batchNumbers,
	type Campaign,
	type CampaignBatch,
	checkLaterCsv,
	campaignIdOf,
	type CampaignRow,
	groupCampaigns,
	inSendWindow,
	messageProblem,
	optOutSet,
	planCampaign,
	recipientJson,
	rejectedCsv,
	settle,
	splitRecipients,
	summaryJson,
} from './campaign';

export { splitRecipients };

/** What the runner prices and sends: the whole input as one campaign. */
interface CampaignRequest {
	rows: CampaignRow[];
	sender: string;
	dnd: boolean;
	optOut: Set<string>;
	batchSize: number;
	oncePerNumber: boolean;
}

/** After these the site will refuse every further batch too: stop instead of failing them one by one. */
const STOP_CODES = new Set(['insufficient_balance', 'auth', 'forbidden']);

/** Waits so that at most `perSecond` messages (numbers) leave per second, across concurrent batches. */
function pacer(perSecond: number): (messages: number) => Promise<void> {
	const start = Date.now();
	let scheduled = 0;
	return async (messages) => {
		const due = start + (scheduled / perSecond) * 1000;
		scheduled += messages;
		const wait = due - Date.now();
		if (wait > 0) await sleep(wait);
	};
}

const hourLabel = (h: number): string => `${String(h % 24).padStart(2, '0')}:00`;

const P = PRODUCT_TABLE.sms;
const N = productNode(P);

export class VtuBulkSms implements INodeType {
	description: INodeTypeDescription = {
		...N.base,
		// literal for n8n lint: icon-validation, require-node-description-fields, node-usable-as-tool
		icon: { light: 'file:vtuBulkSms.svg', dark: 'file:vtuBulkSms.dark.svg' },
		subtitle: N.subtitle,
		usableAsTool: N.usableAsTool,
		properties: N.properties([
			{
				displayName: P.fields.sender.label,
				name: 'sender',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. AdeStores',
				description: `Name the message comes from (at most ${P.limits.senderChars} characters)`,
				displayOptions: { show: spending(P) },
			},
			{
				displayName: 'Message',
				name: 'message',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				required: true,
				description: 'Text of the SMS; 160 characters is one page, longer messages cost more pages',
				displayOptions: { show: spending(P) },
			},
			{
				displayName: 'Recipients From',
				name: 'recipientsFrom',
				type: 'options',
				options: [
					{
						name: 'Recipients Parameter',
						value: 'field',
						description:
							'Each input item sends Message to the numbers in Recipients; all items together are one campaign',
					},
					{
						name: 'A Field of Every Input Item',
						value: 'allItems',
						description:
							'Each input item (e.g. a CSV row) sends Message to the number(s) in Phone Field; all items ' +
							'together are one campaign',
					},
				],
				default: 'field',
				description:
					'Every input item is a row of ONE campaign: a personalised Message (an expression such as Hi {{ ' +
					'$JSON.name }}) is worked out per row, a number in several rows gets one text (the message of ' +
					'its first row, see Text Each Number Once), and the campaign is priced once',
				displayOptions: { show: spending(P) },
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
				displayOptions: { show: spending(P) },
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				options: [
					{
						name: 'Campaign Summary',
						value: 'summary',
						description: 'One item: counts and cost first, with the numbers not sent attached as rejected.csv',
					},
					{
						name: 'One Item per Recipient',
						value: 'recipients',
						description:
							'One item per number of the input (status, reason, batch, campaign ID), paired to its input row',
					},
				],
				default: 'summary',
				displayOptions: { show: spending(P) },
			},
			purchaseOptions(spending(P), [
				{
					displayName: 'Batch Size',
					name: 'batchSize',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 10000 },
					default: 500,
					description: 'Numbers per request to the site; a large campaign is sent in several batches',
				},
				{
					displayName: 'Name Field',
					name: 'nameField',
					type: 'string',
					default: '',
					placeholder: 'e.g. name',
					description:
						"Field of the input items with the customer's name, shown next to each number in rejected.csv " +
						'and per-recipient items',
				},
				{
					displayName: 'Opt-Out Numbers',
					name: 'optOut',
					type: 'string',
					typeOptions: { rows: 3 },
					default: '',
					placeholder: 'e.g. 08031234567, 08051234567',
					description:
						'Numbers that replied STOP (separated by commas or new lines, or a list from an expression). ' +
						'They are left out before the campaign is priced.',
				},
				{
					displayName: 'Text Each Number Once',
					name: 'oncePerNumber',
					type: 'boolean',
					default: true,
					description:
						'Whether a number that appears in several rows (e.g. under two names) gets only one text, the ' +
						'message of its first row. Off: it gets one text per different message. Either way the summary ' +
						'lists every repeated number with its rows.',
				},
				{
					displayName: 'Send Rate (Messages per Second)',
					name: 'sendRate',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 0,
					description: 'Most numbers texted per second across all requests; 0 means as fast as the site answers',
				},
				{
					displayName: 'Send Window Start (Hour, Lagos Time)',
					name: 'sendWindowStart',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: 23 },
					default: 0,
					description:
						'First hour (0–23, Lagos time) in which messages may go out. With the end hour equal to it, any time.',
				},
				{
					displayName: 'Send Window End (Hour, Lagos Time)',
					name: 'sendWindowEnd',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: 24 },
					default: 0,
					description:
						'Hour (1–24, Lagos time) at which sending stops; batches not sent by then are reported as not sent',
				},
			]),
			{
				displayName: 'Group By',
				name: 'groupBy',
				type: 'options',
				options: [
					{ name: 'Batch', value: 'batch', description: 'One item per request the site recorded' },
					{
						name: 'Campaign',
						value: 'campaign',
						description:
							'One item per campaign: batches from one sender sent at most 10 minutes apart, with the ' +
							'campaign ID the Send operation reports',
					},
				],
				default: 'batch',
				displayOptions: { show: { operation: ['listBatches'] } },
			},
			{
				displayName: 'Return All',
				name: 'returnAll',
				type: 'boolean',
				default: false,
				description: 'Whether to return all results or only up to a given limit',
				displayOptions: { show: { operation: ['listBatches'] } },
			},
			limitField({ operation: ['listBatches'], returnAll: [false] }),
		]),
	};

	methods = N.methods();

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation === 'listBatches') return [await runEachItem(this, (i, client) => listBatches(this, i, client))];

		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		const batchSize = Math.max(1, Math.floor(Number(options.batchSize ?? 500) || 500));
		const inputCount = this.getInputData().length;
		const output = this.getNodeParameter('output', 0, 'summary') as string;
		let campaign: Campaign | undefined;
		// the campaign's one summary item comes from every input row
		const everyRow = () => Array.from({ length: inputCount }, (_, item) => ({ item }));

		const items = await runPurchases<CampaignRequest>(this, {
			clientOptions: batchSize === 500 ? {} : { smsBatchSize: batchSize },
			count: inputCount > 0 ? 1 : 0,
			paired: everyRow,
			build: () => readCampaign(this, batchSize),
			quote: async (c, req) => {
				const rates = await c.catalog.sms();
				campaign = planCampaign(req.rows, { ...req, rateKobo: (req.dnd ? rates.dndPerPage : rates.perPage).kobo });
				return { kobo: campaign.costKobo, json: { product: 'sms', ...summaryJson(campaign, false) } };
			},
			execute: async (c, _req, opts) => {
				const charged = await sendCampaign(this, c, campaign!, opts);
				return {
					items: [
						{
							json: { status: campaignStatus(campaign!), ...summaryJson(campaign!, true), ...charged.extra },
							pairedItem: everyRow(),
						},
					],
					chargedKobo: charged.kobo,
				};
			},
		});

		// An error item (Continue On Fail) or a refusal is passed on as it is.
		if (!campaign || items.length !== 1 || items[0].json.error !== undefined) return [items];
		if (output === 'recipients') {
			const c = campaign;
			return [c.recipients.map((r) => ({ json: recipientJson(c, r), pairedItem: { item: r.item } }))];
		}
		const binary: NonNullable<INodeExecutionData['binary']> = {};
		// each CSV is attached only when it has rows; the item says what it holds
		const attach = async (key: string, file: { csv: string; count: number }, fileName: string, says: string) => {
			if (file.count === 0) return;
			binary[key] = await this.helpers.prepareBinaryData(Buffer.from(file.csv, 'utf8'), fileName, 'text/csv');
			items[0].json[`${key}File`] = `${fileName}: ${countText(file.count, 'number')} ${says}`;
		};
		await attach(
			'rejected',
			rejectedCsv(campaign),
			'rejected.csv',
			'not sent, with row, name, number, status and reason',
		);
		await attach(
			'checkLater',
			checkLaterCsv(campaign),
			'check-later.csv',
			'of requests with no clear answer (maybe texted and charged): do not resend them, resolve them first',
		);
		if (Object.keys(binary).length > 0) items[0].binary = binary;
		return [items];
	}
}

/** Every input item as a row of the one campaign; a row's problems are kept for the summary, never thrown. */
function readCampaign(ctx: IExecuteFunctions, batchSize: number): CampaignRequest {
	const from = ctx.getNodeParameter('recipientsFrom', 0, 'field') as string;
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const phoneField = from === 'allItems' ? stringParam(ctx, 'phoneField', 0, 'Phone Field') : '';
	const nameField = typeof options.nameField === 'string' ? options.nameField.trim() : '';
	let sender: string;
	try {
		sender = checkSender(ctx.getNodeParameter('sender', 0, ''));
	} catch (e) {
		throw refuse(
			'invalid_input',
			(e as Error).message,
			'Set Sender ID to the name the message comes from, e.g. AdeStores.',
		);
	}
	const rows = ctx.getInputData().map((item, i): CampaignRow => {
		let message: CampaignRow['message'];
		try {
			const m = itemParam(ctx, 'message', i, '');
			message = messageProblem(m) === null ? (m as string) : { problem: messageProblem(m)! };
		} catch (e) {
			message = { problem: `message could not be worked out: ${(e as Error).message}` };
		}
		const numbers = splitRecipients(from === 'allItems' ? item.json[phoneField] : itemParam(ctx, 'recipients', i, ''));
		const name = nameField ? item.json[nameField] : undefined;
		return { numbers, message, name: name === undefined || name === null ? null : String(name) };
	});
	return {
		rows,
		sender,
		dnd: booleanParam(ctx, 'dnd', 0),
		optOut: optOutSet(options.optOut ?? ''),
		batchSize,
		oncePerNumber: options.oncePerNumber !== false,
	};
}

function campaignStatus(c: Campaign): string {
	const st = new Set(c.batches.map((b) => b.status));
	if (st.size === 1 && st.has('successful')) return 'successful';
	return st.has('successful') ? 'partial' : 'failed';
}

/** What the batches of one send share: why sending stopped, and the wallet after the newest request. */
interface SendState {
	stop: string | null;
	balance: IDataObject[string];
	lastId: number;
	processingMs: number;
}

/**
 * Send every batch as its own safe purchase (client.sms.send: one request, reconciled on an unclear
 * answer), with bounded concurrency, the send rate and the send window. A batch that fails is
 * recorded and the rest go on, except after an error every later batch would meet too.
 */
async function sendCampaign(
	ctx: IExecuteFunctions,
	client: VtuClient,
	c: Campaign,
	opts: BuyOptions,
): Promise<{ kobo: number; extra: IDataObject }> {
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const start = Math.floor(Number(options.sendWindowStart ?? 0) || 0);
	const end = Math.floor(Number(options.sendWindowEnd ?? 0) || 0);
	const window = `${hourLabel(start)}–${hourLabel(end)} Lagos time`;
	checkSendable(c, inSendWindow(new Date(), start, end), window);
	const rate = Number(options.sendRate ?? 0) || 0;
	const pace = rate > 0 ? pacer(rate) : null;
	const { concurrency } = readPurchaseOptions(ctx);
	const state: SendState = { stop: null, balance: null, lastId: -Infinity, processingMs: 0 };
	state.processingMs = (await getVtuCredentials(ctx)).processingMs;
	await runPool(
		c.batches.map((_, i) => i),
		// the option is the purchase runner's ceiling; campaign batches keep the fixed starting pace
		Math.min(concurrency, START_CONCURRENCY),
		async (i) => {
			const b = c.batches[i];
			if (pace) await pace(b.recipients.length);
			if (state.stop === null && !inSendWindow(new Date(), start, end))
				state.stop = `the send window (${window}) closed`;
			if (state.stop !== null) [b.status, b.error] = ['not sent', `not sent: ${state.stop}`];
			else await sendBatch(client, c, b, opts, state);
		},
		() => false,
	);
	settle(c);
	c.campaignId = campaignIdOf(c);
	// the Spend Cap counts unclear requests as spent (they may have been charged)
	return { kobo: c.batches.reduce((s, b) => s + b.chargedKobo + b.unclearKobo, 0), extra: { balance: state.balance } };
}

/** Refuse a campaign with nothing to send, or started outside its send window: nothing is sent. */
function checkSendable(c: Campaign, inWindow: boolean, window: string): void {
	if (c.batches.every((b) => b.recipients.length === 0)) {
		const n = c.recipients.length;
		const which = n === 1 ? 'the 1 number is not' : `none of the ${countText(n, 'number')} is`;
		throw refuse(
			'invalid_input',
			`Nothing to send: ${which} a new, valid Nigerian mobile number that has not opted out`,
			'Run with Dry Run on to see every number and why it was left out.',
		);
	}
	if (!inWindow) {
		throw refuse(
			'not_charged',
			`Outside the send window (${window}): nothing was sent`,
			'Run the workflow inside the window, or widen Send Window Start/End.',
		);
	}
}

/** One batch as one safe purchase; its outcome is written on the batch. */
async function sendBatch(
	client: VtuClient,
	c: Campaign,
	b: CampaignBatch,
	opts: BuyOptions,
	state: SendState,
): Promise<void> {
	b.sentAt = new Date().toISOString();
	try {
		const [r] = await client.sms.send(
			{ sender: c.sender, message: b.message, recipients: batchNumbers(c, b), dnd: c.dnd },
			opts,
		);
		b.ident = r.ident;
		b.id = r.id;
		b.status = r.status === 'successful' ? 'successful' : r.status === 'failed' ? 'failed' : 'unknown outcome';
		b.chargedKobo = r.status === 'failed' ? 0 : r.amount.kobo;
		if (r.status !== 'successful') b.error = r.message || `the site says ${r.status}`;
		// A site that counts pages differently (e.g. UTF-16 units) charges more than quoted: stop there
		// so the campaign cannot run past its quote and the Spend Cap by more than this one request.
		if (b.chargedKobo > b.costKobo) {
			state.stop =
				`the site charged ${formatNaira(b.chargedKobo, { symbol: true })} ` +
				`for a request quoted ${formatNaira(b.costKobo, { symbol: true })}`;
		}
		if (r.balanceAfter && Number(r.id) > state.lastId) {
			[state.lastId, state.balance] = [Number(r.id), naira(r.balanceAfter)];
		}
	} catch (e) {
		batchFailed(b, e, state);
	}
}

/** Only a proven refusal is "failed"; anything else may have been charged and texted: check later. */
function batchFailed(b: CampaignBatch, e: unknown, state: SendState): void {
	const code = (e as { code?: string }).code ?? 'error';
	const notCharged = NOT_CHARGED_CODES.has(code);
	b.status = notCharged ? 'failed' : 'unknown outcome';
	b.error = notCharged
		? `${code}: ${(e as Error).message}`
		: `check later (${code}), do not resend: ${(e as Error).message}`;
	b.chargedKobo = 0;
	b.unclearKobo = notCharged ? 0 : b.costKobo;
	if (!notCharged) {
		const facts = unclearFacts(e, { request: null, sentAt: b.sentAt as string, processingMs: state.processingMs });
		b.resolvableAfter = String(facts.resolvableAfter);
		if (facts.customerRef !== undefined) b.customerRef = facts.customerRef as string | null;
	}
	if (STOP_CODES.has(code)) state.stop = `an earlier batch failed with ${code}`;
}

/** List Batches: one item per batch or per campaign; Return All reads every page or says where it stopped. */
async function listBatches(ctx: IExecuteFunctions, i: number, client: VtuClient): Promise<IDataObject[]> {
	const returnAll = ctx.getNodeParameter('returnAll', i, false) as boolean;
	const limit = returnAll ? Infinity : (ctx.getNodeParameter('limit', i, 50) as number);
	const byCampaign = ctx.getNodeParameter('groupBy', i, 'batch') === 'campaign';
	const batches: Awaited<ReturnType<VtuClient['sms']['history']>>['items'] = [];
	let page: number | null = 1;
	// By campaign, read one batch past the limit's last campaign so that campaign is complete.
	const enough = () => (byCampaign ? groupCampaigns(batches).length > limit : batches.length >= limit);
	while (page !== null && !enough()) {
		const res = await client.sms.history({ page });
		batches.push(...res.items);
		if (res.items.length === 0 || res.next === null) break;
		if (res.next <= page) {
			throw refuse(
				'bad_response',
				`Stopped after page ${page} (${countText(batches.length, 'batch', 'batches')} read): ` +
					`the site's next page is ${res.next}, which does not move forward, so reading on would loop`,
				"Turn off Return All and use Limit, or report the site's paging to its support.",
			);
		}
		page = res.next;
	}
	if (byCampaign) return groupCampaigns(batches).slice(0, limit);
	return batches.slice(0, limit).map((b) => ({
		ident: b.ident,
		sender: b.sender,
		message: b.message,
		recipients: b.recipients,
		recipientCount: b.recipients.length,
		pages: b.pages,
		amount: b.amount.naira,
		dnd: b.dnd,
		createdAt: b.createdAt,
	}));
}
