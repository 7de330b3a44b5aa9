/** The storefront's money, for the bot to call. See docs/storefront.md. */
export { openStoreDb, type OpenedDb, type OpenOptions, type StoreDb } from './db';
export {
	audit,
	Books,
	Ledger,
	OWNER,
	walletId,
	type AuditReport,
	type PaymentIn,
	type PaymentOutcome,
	type WalletBalance,
} from './ledger';
export {
	createWebhookServer,
	handleWebhook,
	linkAccount,
	monnify,
	openCustomerAccount,
	paystack,
	type PaymentProvider,
} from './payments';
export { Storefront, type OrderDeps, type OrderOutcome, type OrderState, type Pricing } from './orders';
