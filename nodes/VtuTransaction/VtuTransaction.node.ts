import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import type { Product } from '../../client/types';
import { RECORD_PRODUCT_OPTIONS, productField, transactionLookupFields } from '../shared/descriptions';
import { resultJson } from '../shared/format';
import { getTransaction } from '../shared/operations';
import { ACCOUNT_NODES } from '../shared/accountNodes';
import { productNode } from '../shared/product';
import { runEachItem } from '../shared/runner';
import { getMany, getManyFields } from './getMany';
import { resolveItem } from './resolve';

const P = ACCOUNT_NODES.transaction;
const N = productNode(P);

export class VtuTransaction implements INodeType {
	description: INodeTypeDescription = {
		...N.base,
		// literal for n8n lint: icon-validation, require-node-description-fields, node-usable-as-tool
		icon: { light: 'file:vtuTransaction.svg', dark: 'file:vtuTransaction.dark.svg' },
		subtitle: N.subtitle,
		usableAsTool: N.usableAsTool,
		properties: N.properties([
			productField(RECORD_PRODUCT_OPTIONS, 'Which kind of purchase to look up', { operation: ['get', 'getMany'] }),
			...transactionLookupFields({ operation: ['get'] }),
			...getManyFields,
			{
				displayName:
					'Feed this the "unknown outcome" items of a buying node (Continue On Fail on), best after their ' +
					'resolvableAfter time (e.g. behind a Wait node). It never buys: it answers resolution "bought" ' +
					'with the record, "not_bought" when the site\'s records prove it, or "still_unclear" with ' +
					'tryAgainAfter.',
				name: 'resolveNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { operation: ['resolveUnclear'] } },
			},
			{
				displayName: 'Request',
				name: 'unclearRequest',
				type: 'json',
				default: '={{ $json.request ?? $json.error?.request }}',
				required: true,
				description:
					'The purchase as the buying node sent it: the "request" field of its unknown-outcome item ' +
					'(inside "error" on the error output)',
				displayOptions: { show: { operation: ['resolveUnclear'] } },
			},
			{
				displayName: 'Sent At',
				name: 'sentAt',
				type: 'string',
				default: '={{ $json.sentAt ?? $json.error?.sentAt }}',
				required: true,
				placeholder: 'e.g. 2026-11-24T10:00:00.000Z',
				description:
					'When the purchase was sent: the "sentAt" field of its unknown-outcome item (inside "error" on the error output)',
				displayOptions: { show: { operation: ['resolveUnclear'] } },
			},
			{
				displayName: 'Customer Reference',
				name: 'customerRef',
				type: 'string',
				default: '={{ $json.customerRef ?? $json.error?.customerRef ?? "" }}',
				placeholder: 'e.g. 3q2-hx0VbW9kZ1Lr',
				description:
					'The customer_ref the purchase was sent with: the "customerRef" field of its unknown-outcome ' +
					'item (when the credential sends one). Where the site echoes it, the record carrying it is ' +
					"proven this purchase's, even beside identical purchases of other buyers. Empty: not known.",
				displayOptions: { show: { operation: ['resolveUnclear'] } },
			},
		]),
	};

	methods = N.methods();

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		return [
			await runEachItem(this, async (i, client) => {
				if (operation === 'resolveUnclear') return await resolveItem(this, client, i);
				const product = this.getNodeParameter('product', i) as Product;
				if (operation === 'getMany') return await getMany(this, client, product, i);
				return resultJson(await getTransaction(this, client, product, i));
			}),
		];
	}
}
