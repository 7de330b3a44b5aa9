/** The safe-purchase mechanism, split by concern; this re-exports what the client needs. */
export { AccountRegistry, processAccounts, type AccountState, type SiteClock } from './accounts';
export { DEFAULT_RECONCILE, type PurchaseContext, type ReconcileSettings } from './context';
export { parseCreateDate } from './clock';
export { claim, isClaimed, recordKey } from './claims';
export { fetchRecord, listPage, matchingRecords, waitForFinal } from './records';
export { reconcilePurchase, type ClaimedRecord, type ReconcileRun } from './reconcile';
export { executePurchase, type ExecuteOptions } from './execute';
export { attributeSend } from './attribute';
