/**
 * Follows the storefront's open orders to their end (store/orders.ts Storefront.follow): an unknown one
 * is reconciled (settled, released, or still held), a held one left by a crash likewise once the vendor's
 * processing bound has passed, and a settled one whose vendor record later turns `failed` is refunded once.
 * Each customer is told the end of an order once (StoreSide.tellOnce), whichever instance saw it.
 */
import type { OrderState } from '../../store/orders';
import { t } from '../i18n';
import { naira } from '../orders';
import { withDelivered } from '../delivery';
import type { StoreSide } from './service';
import { referenceLines } from './confirm';

export interface StoreFollowerOptions {
	intervalMs: number;
	/** a `held` order younger than this may still be in flight at some instance: not touched */
	heldGraceMs: number;
	/** how long a settled order is watched for a late failure */
	refundWatchMs: number;
}

/** What the customer is told when an order ends away from its flow. */
export function laterText(
	state: OrderState,
	price: number,
	available: number,
	result?: { product: string; ident?: string | null; details: Record<string, unknown> },
	orderId?: string,
): string | null {
	const vars = { price: naira(price), balance: naira(available) };
	// the order's own reference, as its Confirm, "Buying…" and first outcome said it
	const ref = orderId ? referenceLines(orderId, state === 'settled' ? result?.ident : null) : [];
	// what a late-settled order hands over (a token, PINs) is in the message: the flow that asked is long gone
	if (state === 'settled')
		return withDelivered([t('sf-later-settled', vars), ...ref], result?.product ?? '', result?.details ?? {});
	if (state === 'released') return [t('sf-later-released', vars), ...ref].join('\n');
	if (state === 'refunded') return [t('sf-later-refunded', vars), ...ref].join('\n');
	return null;
}

export class StoreFollower {
	private timer?: NodeJS.Timeout;
	private running?: Promise<number>;

	constructor(
		private readonly side: StoreSide,
		private readonly o: StoreFollowerOptions,
	) {}

	/** One pass over the open orders; returns how many changed state. */
	tick(): Promise<number> {
		return (this.running ??= this.pass().finally(() => (this.running = undefined)));
	}

	private async pass(): Promise<number> {
		const now = Date.now();
		const heldBefore = new Date(now - this.o.heldGraceMs).toISOString();
		const watchSince = new Date(now - this.o.refundWatchMs).toISOString();
		const open = await this.side.books.db
			.selectFrom('orders')
			.select(['id', 'customer_id', 'state', 'price'])
			.where((eb) =>
				eb.or([
					eb('state', '=', 'unknown'),
					eb.and([eb('state', '=', 'held'), eb('created_at', '<', heldBefore)]),
					eb.and([eb('state', '=', 'settled'), eb('created_at', '>', watchSince)]),
				]),
			)
			.execute();
		let changed = 0;
		for (const o of open) {
			try {
				const out = await this.side.store.follow(o.id);
				if (out.state === o.state) continue;
				changed++;
				if (out.state === 'settled' && out.result)
					await this.side.keepDelivery(o.id, out.result.product, out.result.details ?? {});
				const w = await this.side.books.walletBalance(o.customer_id);
				// in the customer's language (/language): the notice, its buttons and the PINs' sheet
				await this.side.inLocaleOf(o.customer_id, async () => {
					const text = laterText(out.state, o.price, w.available, out.result, o.id);
					const key = `order:${o.id}:${out.state}`;
					const told = text ? await this.side.tellOnce(key, o.customer_id, text, o.id) : false;
					// the PINs' printable sheet goes with the message that carries them, once
					if (told && out.state === 'settled' && out.result)
						await this.side.sendSheetTo(o.customer_id, o.id, out.result);
				});
			} catch (e) {
				this.side.o.logger.warn('storefront order not followed yet', { order: o.id, err: e });
			}
		}
		return changed;
	}

	start(): void {
		if (this.timer) return;
		this.timer = setInterval(() => void this.tick(), this.o.intervalMs);
		this.timer.unref();
		this.side.daily.start(); // the owner's daily summary runs beside the follower
	}

	async stop(): Promise<void> {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
		await this.running;
		await this.side.daily.stop();
	}
}
