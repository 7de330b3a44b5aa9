import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import type { PurchaseRequest } from '../../client/core';
import { PRODUCT_TABLE } from '../../client/products/registry';
import type { PurchaseResult } from '../../client/types';
import { catalogueField, networkField, purchaseOptions, quantityField } from '../shared/descriptions';
import { resultJson } from '../shared/format';
import { catalogueIdParam, idParam, positiveIntParam, stringParam } from '../shared/params';
import { productNode, spending } from '../shared/product';
import { runPurchases } from '../shared/runner';

const OUTPUTS = [
	{ name: 'One Item per Card', value: 'cards', description: 'Each pin is its own item' },
	{ name: 'One Item per Order', value: 'order', description: 'The order with a list of cards' },
];

interface Card {
	pin: string;
	serial: string;
	loadCode: string;
	amount: string;
}

function cardsOf(r: PurchaseResult): Card[] {
	const raw = (r.details?.cards ?? []) as Array<Record<string, unknown>>;
	return raw.map((c) => {
		const amt = c.amount as { naira?: string } | string | number | undefined;
		return {
			pin: String(c.pin ?? ''),
			serial: String(c.serial ?? ''),
			loadCode: String(c.loadCode ?? ''),
			amount: typeof amt === 'object' && amt !== null ? String(amt.naira ?? '') : String(amt ?? ''),
		};
	});
}

function csvCell(v: string): string {
	return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function cardsCsv(cards: Card[], network: string, nameOnCard: string): string {
	const lines = ['network,amount,pin,serial,load_code,name_on_card'];
	for (const c of cards) {
		lines.push([network, c.amount, c.pin, c.serial, c.loadCode, nameOnCard].map(csvCell).join(','));
	}
	return lines.join('\n') + '\n';
}

function esc(s: string): string {
	return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A print-ready A4 sheet: a grid of cut-out cards. */
export function cardsHtml(cards: Card[], network: string, nameOnCard: string): string {
	const cells = cards
		.map(
			(c) =>
				`<div class="card"><div class="top"><b>${esc(network)}</b><span>₦${esc(c.amount)}</span></div>` +
				`<div class="pin">${esc(c.pin)}</div>` +
				`<div class="meta">Serial: ${esc(c.serial)}</div>` +
				(c.loadCode ? `<div class="meta">Dial: ${esc(c.loadCode)}</div>` : '') +
				(nameOnCard ? `<div class="name">${esc(nameOnCard)}</div>` : '') +
				'</div>',
		)
		.join('\n');
	return `<!doctype html>
<html><head><meta charset="utf-8"><title>${esc(network)} recharge cards</title>
<style>
@page { size: A4; margin: 8mm; }
body { font-family: Arial, Helvetica, sans-serif; margin: 0; }
.grid { display: grid; grid-template-columns: repeat(3, 1fr); gap: 3mm; }
.card { border: 1px dashed #555; padding: 3mm; page-break-inside: avoid; height: 30mm; box-sizing: border-box; }
.top { display: flex; justify-content: space-between; font-size: 12pt; }
.pin { font-family: "Courier New", monospace; font-size: 14pt; letter-spacing: 1px; margin: 2mm 0; font-weight: bold; }
.meta, .name { font-size: 8pt; color: #333; }
</style></head>
<body><div class="grid">
${cells}
</div></body></html>
`;
}

const P = PRODUCT_TABLE.recharge_card;
const N = productNode(P);

export class VtuRechargeCard implements INodeType {
	description: INodeTypeDescription = {
		...N.base,
		// literal for n8n lint: icon-validation, require-node-description-fields, node-usable-as-tool
		icon: { light: 'file:vtuRechargeCard.svg', dark: 'file:vtuRechargeCard.dark.svg' },
		subtitle: N.subtitle,
		usableAsTool: N.usableAsTool,
		properties: N.properties([
			networkField(spending(P)),
			catalogueField(
				'denomination',
				P.fields.denomination.label,
				'Card value with your price',
				spending(P),
				'getRechargeDenominations',
				['network'],
			),
			quantityField(
				P.fields.quantity.label,
				P.limits.quantity,
				`Number of cards in this order (the site allows up to ${P.limits.quantity.max})`,
				spending(P),
			),
			{
				displayName: 'Name on Card',
				name: 'nameOnCard',
				type: 'string',
				default: '',
				placeholder: 'e.g. Ade Stores',
				description: 'Business name printed on the cards',
				displayOptions: { show: spending(P) },
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				options: OUTPUTS,
				default: 'cards',
				displayOptions: { show: spending(P) },
			},
			// a literal: n8n-nodes-base's node-param-* rules check a parameter only as one
			{
				displayName: 'Printable File',
				name: 'printableFile',
				type: 'options',
				options: [
					{ name: 'None', value: 'none' },
					{ name: 'CSV', value: 'csv' },
					{ name: 'HTML Print Sheet', value: 'html' },
					{ name: 'CSV and HTML', value: 'both' },
				],
				default: 'none',
				description: 'Whether to add the cards as a binary file (on the first output item of each order)',
				displayOptions: { show: spending(P) },
			},
			purchaseOptions(spending(P)),
		]),
	};

	methods = N.methods('getNetworks', 'getRechargeDenominations');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const output = this.getNodeParameter('output', 0, 'cards') as string;
		const printable = this.getNodeParameter('printableFile', 0, 'none') as string;
		return [
			await runPurchases<PurchaseRequest>(this, {
				build: (i) => {
					const nameOnCard = stringParam(this, 'nameOnCard', i, P.fields.nameOnCard.label, false);
					return {
						product: P.product,
						network: idParam(this, 'network', i, P.fields.network.label),
						denomination: catalogueIdParam(
							this,
							'denomination',
							i,
							P.fields.denomination.label,
							'the denomination ID from the list',
						),
						quantity: positiveIntParam(this, 'quantity', i, P.fields.quantity.label),
						...(nameOnCard ? { nameOnCard } : {}),
					};
				},
				execute: async (client, req, opts, i) => {
					const r = await client.buy(req, opts);
					const items = await orderItems(this, r, req, { output, printable, item: i });
					return { items, chargedKobo: r.status === 'failed' ? 0 : r.amount.kobo };
				},
			}),
		];
	}
}

/**
 * A bought order as output items: one per card (or one for the order), the first carrying the CSV and/or
 * print-ready HTML sheet the builder asked for.
 */
async function orderItems(
	ctx: IExecuteFunctions,
	r: PurchaseResult,
	req: PurchaseRequest,
	o: { output: string; printable: string; item: number },
): Promise<INodeExecutionData[]> {
	const order = resultJson(r);
	const cards = cardsOf(r);
	const network = String(
		(r.details?.network as string | undefined) ?? order.network ?? (req as { network: string | number }).network,
	);
	const nameOnCard = (req as { nameOnCard?: string }).nameOnCard ?? '';
	let items: INodeExecutionData[];
	if (o.output === 'order' || cards.length === 0) {
		const { cards: _omit, ...orderWithoutCards } = order;
		void _omit;
		const json = { ...orderWithoutCards, cards: cards as unknown as IDataObject[], cardCount: cards.length };
		items = [{ json, pairedItem: { item: o.item } }];
	} else {
		items = cards.map((c, n) => ({
			pairedItem: { item: o.item },
			json: {
				...c,
				network,
				cardNumber: n + 1,
				cardCount: cards.length,
				orderId: r.id,
				ident: r.ident,
				status: r.status,
				path: r.path,
				orderAmount: order.amount,
				balance: order.balance,
			},
		}));
	}
	const binary = await printFiles(ctx, cards, o.printable, {
		network,
		nameOnCard,
		stem: `recharge-cards-${r.id ?? r.ident ?? 'order'}`,
	});
	if (Object.keys(binary).length > 0) items[0].binary = binary;
	return items;
}

/** The cards as a CSV and/or a print-ready HTML sheet (Printable File), none when there are no cards. */
async function printFiles(
	ctx: IExecuteFunctions,
	cards: ReturnType<typeof cardsOf>,
	printable: string,
	o: { network: string; nameOnCard: string; stem: string },
): Promise<Record<string, IBinaryData>> {
	const binary: Record<string, IBinaryData> = {};
	if (cards.length && (printable === 'csv' || printable === 'both')) {
		binary.csv = await ctx.helpers.prepareBinaryData(
			Buffer.from(cardsCsv(cards, o.network, o.nameOnCard), 'utf8'),
			`${o.stem}.csv`,
			'text/csv',
		);
	}
	if (cards.length && (printable === 'html' || printable === 'both')) {
		binary.html = await ctx.helpers.prepareBinaryData(
			Buffer.from(cardsHtml(cards, o.network, o.nameOnCard), 'utf8'),
			`${o.stem}.html`,
			'text/html',
		);
	}
	return binary;
}
