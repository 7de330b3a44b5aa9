/** /balance and the menu's Balance button. Typed during a flow, it answers without ending the flow. */
import { t } from '../i18n';
import { naira } from '../orders';
import { readingFeature } from './reading';

export const balance = readingFeature('balance', 'balance', {
	command: { name: 'balance', description: 'cmd-balance', help: 'help-balance' },
	menu: { label: 'menu-balance', row: 3 },
	read: async (s) => t('balance-text', { balance: naira((await s.walletBalance()).kobo) }),
	failed: 'balance-failed',
});
