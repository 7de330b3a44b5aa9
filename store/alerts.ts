/**
 * Owner alerts sent once per crossing, whichever instance sees the crossing: a row per alert (`low_float`)
 * is armed or fired, and firing is one conditional write, so of two instances that see the vendor wallet
 * drop at the same moment exactly one wins; it is armed again when the condition is seen to have cleared.
 */
import type { StoreDb } from './db';

export class OnceAlerts {
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
		return Number(r.numUpdatedRows) === 1;
	}

	/** The condition cleared: the next crossing alerts again. A read first, so a healthy shop writes nothing. */
	async rearm(key: string): Promise<void> {
		const row = await this.db.selectFrom('store_alerts').select('armed').where('key', '=', key).executeTakeFirst();
		if (!row || Number(row.armed) === 1) return;
		await this.db
			.updateTable('store_alerts')
			.set({ armed: 1, changed_at: new Date().toISOString() })
			.where('key', '=', key)
			.where('armed', '=', 0)
			.execute();
	}
}
