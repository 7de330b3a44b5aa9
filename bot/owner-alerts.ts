/**
 * Alerts to the bot's admins (BOT_ADMIN_IDS) that are not about one order: a stranger asking for the till,
 * and the vendor refusing the bot's API token. Each is sent once: the key is claimed first in a table every
 * instance shares (the till's `kv` table; in storefront mode the store's `bot_notices`).
 */
import type { Services } from './context';
import { errorCode } from './vtu';
import { t, withLocale } from './i18n';

/** Tells each admin `text`, rendered in that admin's language (not the update's: a stranger's). */
export async function tellAdmins(s: Services, text: () => string): Promise<void> {
	for (const admin of s.access.adminIds) {
		try {
			await s.api.sendMessage(admin, withLocale(s.locales.of(admin), text));
		} catch (e) {
			s.logger.warn('admin alert not delivered', { admin, err: e instanceof Error ? e.message : String(e) });
		}
	}
}

/** The vendor refused the token (`auth`): every order fails until it is fixed; told once an hour. */
export async function noteVendorRefusal(s: Services, e: unknown): Promise<void> {
	if (errorCode(e) !== 'auth') return;
	if (s.storefront) return s.storefront.noteVendorError(e);
	if (!s.access.claimOnce(`alert:vendor-auth:${new Date().toISOString().slice(0, 13)}`)) return;
	s.logger.warn('the vendor refused the token: admins alerted', { admins: s.access.adminIds.length });
	await tellAdmins(s, () => t('owner-alert-token'));
}
