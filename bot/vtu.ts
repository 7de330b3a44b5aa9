/**
 * The slice of the VTU client the bot uses (client/API.md). The bot never builds API requests:
 * it only calls these methods. Typed structurally so tests can pass the real VtuClient.
 */
import type {
	AirtimeDiscount,
	AirtimePurchase,
	BuyOptions,
	CableProvider,
	CablePurchase,
	Catalog,
	DataPlan,
	Disco,
	ElectricityPurchase,
	ExamPinPurchase,
	ExamPrice,
	DataPurchase,
	Money,
	NetworkInfo,
	PurchaseQuote,
	PurchaseResult,
	ReconcileOptions,
	RechargeCardPurchase,
	RechargeDenomination,
	SmsPlan,
	SmsPurchase,
	SmsRates,
	ValidationResult,
} from '../client/types';

export type { Money, NetworkInfo, PurchaseQuote, PurchaseResult, SmsPlan, DataPlan };

/** The client's request types of the products the bot sells. */
export type BotPurchaseRequest =
	| DataPurchase
	| AirtimePurchase
	| SmsPurchase
	| CablePurchase
	| ElectricityPurchase
	| ExamPinPurchase
	| RechargeCardPurchase;

export type { CableProvider, Disco, ExamPrice, RechargeDenomination, ValidationResult };

export interface VtuClientLike {
	user: { balance(): Promise<Money> };
	catalog: {
		/** The whole catalogue (cached by the client): the cheapest order of a product at a flow's start. */
		get(): Promise<Catalog>;
		networks(): Promise<NetworkInfo[]>;
		airtime(): Promise<AirtimeDiscount[]>;
		sms(): Promise<SmsRates>;
		cable(): Promise<CableProvider[]>;
		discos(): Promise<Disco[]>;
		exams(): Promise<ExamPrice[]>;
		recharge(): Promise<RechargeDenomination[]>;
	};
	cable: { validate(r: { provider: string | number; iuc: string }): Promise<ValidationResult> };
	electricity: {
		validate(r: {
			disco: string | number;
			meter: string;
			meterType: 'prepaid' | 'postpaid';
		}): Promise<ValidationResult>;
	};
	quote(req: BotPurchaseRequest): Promise<PurchaseQuote>;
	buy(req: BotPurchaseRequest, opts?: BuyOptions): Promise<PurchaseResult>;
	reconcile(req: BotPurchaseRequest, opts: ReconcileOptions): Promise<PurchaseResult>;
	transactions: { refresh(result: PurchaseResult): Promise<PurchaseResult> };
	sms: { plan(req: Omit<SmsPurchase, 'product'>): Promise<SmsPlan> };
}

/** Errors of the client carry a stable `code`; the bot only reads that. */
export function errorCode(e: unknown): string | undefined {
	const c = (e as { code?: unknown } | null)?.code;
	return typeof c === 'string' ? c : undefined;
}

export { NOT_CHARGED_CODES } from '../client/errors';
// the customer_ref a record carries (where the site echoes one): proof of whose record it is
export { refOf } from '../client/purchase/claims';
// a customer_ref chosen before the purchase is sent (journalled first: bot/orders.ts)
export { newCustomerRef } from '../client/purchase/execute';
export { PRODUCT_TABLE } from '../client/products/registry';
export { formatPhone, detectNetwork, normalizePhone, tryNormalizePhone } from '../client/phone';
export { formatNaira, money, parseNaira, tryParseKobo } from '../client/money';
export { checkMessage, checkSender, smsPages, splitRecipients } from '../client/products/sms/plan';
// The client's parser of what people type (client/input.ts): the bot reads numbers and amounts with it.
export { classifyPhone } from '../client/phone';
export { parseAmount, parseDigits, parseMobile, parseQuantity } from '../client/input';
