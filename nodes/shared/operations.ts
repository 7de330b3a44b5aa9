import type { IExecuteFunctions } from 'n8n-workflow';

import type { VtuClient } from '../../client/core';
import type { Product, PurchaseResult } from '../../client/types';
import { refuse } from './errors';
import { stringParam } from './params';

/** "Get transaction" of one product, by numeric ID or by ident (parameters lookupBy/transactionId). */
export async function getTransaction(
	ctx: IExecuteFunctions,
	client: VtuClient,
	product: Product,
	itemIndex: number,
): Promise<PurchaseResult> {
	const lookupBy = ctx.getNodeParameter('lookupBy', itemIndex, 'id') as string;
	const value = stringParam(ctx, 'transactionId', itemIndex, 'Transaction ID or Reference');
	if (lookupBy === 'ident') return await client.transactions.findByIdent(product, value);
	if (!/^\d+$/.test(value)) {
		throw refuse(
			'invalid_input',
			`"${value}" is not a numeric transaction ID`,
			'Set Look Up By to "Reference (Ident)" to look it up by its reference.',
		);
	}
	return await client.transactions.get(product, Number(value));
}
