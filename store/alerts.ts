/**
 * Owner alerts sent once per crossing, whichever instance sees the crossing: a row per alert (`low_float`)
 * is armed or fired, and firing is one conditional write, so of two instances that see the vendor wallet
 * drop at the same moment exactly one wins. It is armed again when the condition is seen to have cleared: that
 * is remembered in memory only (a healthy shop says so on every order, so no database access there), and the
 * next crossing at an instance that saw it clear after the last firing fires again, by one compare-and-set
 * on the row's `changed_at` (of instances racing on it exactly one wins; one that never saw it clear stays quiet).
 */
import type { StoreDb } from './db';

export class OnceAlerts {
	/** When this instance last saw each condition cleared (ms). */
	private readonly clearedAt = new Map<string, number>();

	constructor(private readonly db: StoreDb) {}

	/** True for exactly one caller (in any instance) per crossing; false while it is already fired. */
	async fire(key: string): Promise<boolean> {
		const at = new Date().toISOString();
		const added = await this.db
			.insertInto('store_alerts')
			.values({ key, armed: 0, changed_at: at })
			.onConflict((oc) => oc.column('key').doNothing())
			.executeTakeFirst();
		if (Number(added.numInsertedOrUpdatedRows ?? 0) === 1) return true;
		const r = await this.db
			.updateTable('store_alerts')
			.set({ armed: 0, changed_at: at })
			.where('key', '=', key)
			.where('armed', '=', 1)
			.executeTakeFirst();
		return Number(r.numUpdatedRows) === 1 || this.refire(key, at);
	}

	/** The condition cleared: the next crossing alerts again. Memory only: no database access. */
	rearm(key: string): void {
		this.clearedAt.set(key, Date.now());
	}

	/** Fired before this instance saw the condition clear: fire again (compare-and-set on changed_at). */
	private async refire(key: string, at: string): Promise<boolean> {
		const seen = this.clearedAt.get(key);
		if (seen === undefined) return false;
		const row = await this.db.selectFrom('store_alerts').select('changed_at').where('key', '=', key).executeTakeFirst();
		if (!row || Date.parse(row.changed_at) >= seen) return false;
		const r = await this.db
			.updateTable('store_alerts')
			.set({ armed: 0, changed_at: at })
			.where('key', '=', key)
			.where('changed_at', '=', row.changed_at)
			.executeTakeFirst();
		return Number(r.numUpdatedRows) === 1;
	}
}
