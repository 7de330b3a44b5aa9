/**
 * The client core: everything but the transports and timers, which the host injects. This is what
 * the n8n nodes import and what the n8n package ships (package.json "main"); it uses no Node
 * modules, HTTP stack or timer globals. Plain Node: import from client/index.ts instead.
 */
export { VtuClient, type VtuClientOptions } from './client';
export * from './types';
export * from './errors';
export { parseNaira, formatNaira, nairaText, money, tryParseKobo, percentOf, percentString } from './money';
export { normalizePhone, tryNormalizePhone, classifyPhone, detectNetwork, formatPhone, toInternational } from './phone';
export {
	parseId,
	parseQuantity,
	parseDigits,
	parseBoolean,
	parseMessage,
	parseSender,
	parseMobile,
	parseAmount,
	splitRecipients,
	optionalText,
	hasVisibleText,
	mobileProblem,
	phoneProblemText,
	MOBILE_EXAMPLE,
} from './input';
export { planSms, smsPages, unicodeChars, SMS_MAX_CHARS } from './products/sms/plan';
export {
	TransportError,
	type Transport,
	type TransportRequest,
	type TransportResponse,
	type TransportFailure,
	type HttpMethod,
} from './transport';
export type { Clock, Sleep } from './runtime';
export { clearCatalogCache } from './catalog';
export type { WalletEntry } from './wallet';
export { AccountRegistry, DEFAULT_RECONCILE, type ReconcileSettings } from './purchase';
export type { RetryOptions } from './http';
export type { Logger } from './util';
export { classifyResponse } from './http';
