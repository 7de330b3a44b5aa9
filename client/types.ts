/**
 * Public types of the VTU client. Nodes and the bot depend on these names only.
 * Money is integer kobo inside (`…Kobo` fields) and a two-decimal naira string outside.
 */

export type NetworkName = 'MTN' | 'GLO' | 'AIRTEL' | '9MOBILE' | 'SMILE';

/** The products the client sells: the names registered in client/products/registry.ts, declared nowhere else. */
export type Product = import('./products/registry').Product;

/** The three statuses the family's servers use (field `Status`). */
export type TransactionStatus = 'successful' | 'processing' | 'failed';

/** How a purchase result was obtained, so users can audit. */
export type ResultPath = 'direct' | 'reconciled' | 'retried';

export interface Money {
	kobo: number;
	/** Two-decimal naira string, e.g. "250.00". */
	naira: string;
}

export interface UserProfile {
	username: string;
	fullName: string;
	email: string;
	phone: string;
	userType: string;
	isApiUser: boolean;
	balance: Money;
}

export interface DataPlan {
	id: number;
	networkId: number;
	network: NetworkName | string;
	/** e.g. "1GB" */
	size: string;
	/** Normalised kind: SME, GIFTING, CORPORATE GIFTING, AWOOF, DATA SHARE, or the site's own. */
	kind: string;
	/** Validity text as the site gives it, e.g. "30 days"; empty when unknown. */
	validity: string;
	/** Price for the caller's user type. */
	price: Money;
	available: boolean;
	/** e.g. "1GB SME ₦250.00 (30 days)" */
	label: string;
}

export interface NetworkInfo {
	id: number;
	name: NetworkName | string;
	plans: DataPlan[];
}

export interface CablePackage {
	id: number;
	providerId: number;
	provider: 'GOTV' | 'DSTV' | 'STARTIME' | string;
	name: string;
	price: Money;
	label: string;
}

export interface CableProvider {
	id: number;
	name: 'GOTV' | 'DSTV' | 'STARTIME' | string;
	packages: CablePackage[];
}

export interface Disco {
	id: number;
	name: string;
}

export interface ExamPrice {
	exam: 'WAEC' | 'NECO' | 'NABTEB' | string;
	price: Money;
}

export interface AirtimeDiscount {
	network: NetworkName | string;
	/** Percent of face value charged, e.g. 98 means you pay ₦98 for ₦100. Decimal string kept exact. */
	vtuPercent: string;
	shareAndSellPercent: string;
}

/**
 * Where an SMS rate came from: the site's catalogue, the credential, the first batch's wallet change, or assumed (the
 * safe side).
 */
export type RateSource = 'catalogue' | 'credential' | 'learned' | 'assumed';

export interface SmsRates {
	perPage: Money;
	dndPerPage: Money;
	/** Where each rate came from (the client always fills it; absent means the catalogue). */
	sources?: { perPage: RateSource; dndPerPage: RateSource };
}

export interface RechargeDenomination {
	/** The id sent as `network_amount` (a price-row id, not naira). */
	id: number;
	network: NetworkName | string;
	networkId: number;
	faceValue: Money;
	price: Money;
	label: string;
}

export interface Catalog {
	networks: NetworkInfo[];
	cable: CableProvider[];
	discos: Disco[];
	exams: ExamPrice[];
	airtime: AirtimeDiscount[];
	sms: SmsRates;
	recharge: RechargeDenomination[];
}

/** One normalised purchase result, whatever the product. */
export interface PurchaseResult {
	product: Product;
	/** Integer primary key on the vendor's site (null for legacy SMS answers). */
	id: number | null;
	/** Server reference (`ident`); null where the product has none (exam pins). */
	ident: string | null;
	status: TransactionStatus;
	/** What the wallet was charged. */
	amount: Money;
	balanceBefore: Money | null;
	balanceAfter: Money | null;
	/** Phone, IUC, meter number, exam name… whatever identifies the recipient. */
	recipient: string | null;
	/** Product specifics: plan name, token, pins, pages… */
	details: Record<string, unknown>;
	/** Server's human text (api_response / message), never parsed for status. */
	message: string;
	createdAt: string | null;
	path: ResultPath;
	/** The parsed body as the server sent it (sensitive fields removed). */
	raw: unknown;
}

/** A purchase checked and priced locally, not sent. */
export interface PurchaseQuote {
	product: Product;
	recipient: string;
	amount: Money;
	description: string;
	/** The exact body that would be POSTed. */
	request: Record<string, unknown>;
	/** SMS: where the per-page rate came from, and a sentence saying so (e.g. that it is assumed, and why). */
	rateSource?: RateSource;
	rateNote?: string;
}

export interface ValidationResult {
	valid: boolean;
	name: string;
	address?: string;
	raw: unknown;
}

export interface IdentityResult {
	valid: boolean;
	kind: 'bvn' | 'nin';
	number: string;
	firstName: string;
	lastName: string;
	middleName: string;
	fullName: string;
	phone: string;
	provider: string;
	raw: unknown;
}

export interface Page<T> {
	count: number | null;
	next: number | null;
	items: T[];
}

export interface SmsPlan {
	sender: string;
	message: string;
	/** Normalised 11-digit local numbers, deduplicated, in input order. */
	recipients: string[];
	/** Inputs that are not Nigerian mobile numbers, as given. */
	invalid: string[];
	/** The same inputs with why each was refused ("blank", "letters", "wrong length", "not a Nigerian mobile prefix"). */
	rejected: Array<{ input: string; reason: string }>;
	duplicates: number;
	/** Characters (each listed once) that are outside the GSM 7-bit alphabet: networks bill such a message as Unicode. */
	unicode: string[];
	/** Pages as the site counts them: characters (code points, Python `len`), see smsPages. */
	pages: number;
	dnd: boolean;
	/** The per-page rate of the route used (standard or DND), where it came from, and a sentence saying so. */
	rate: Money;
	rateSource: RateSource;
	rateNote: string;
	/** recipients × pages × rate */
	cost: Money;
	/** Recipient chunks, one POST each. */
	batches: string[][];
}

export interface SmsBatch {
	ident: string | null;
	sender: string;
	message: string;
	recipients: string[];
	pages: number;
	amount: Money;
	dnd: boolean;
	createdAt: string | null;
}

/* ---- Added with the implementation (API.md "Buying: one entry point") ---- */

export type AmountInput = number | string;

/** Any product's purchase request, as its folder declares it (client/products/registry.ts). */
export type PurchaseRequest = import('./products/registry').PurchaseRequest;
export type {
	AirtimePurchase,
	CablePurchase,
	DataPurchase,
	ElectricityPurchase,
	ExamPinPurchase,
	RechargeCardPurchase,
	SmsPurchase,
	DataCouponPurchase,
} from './products/registry';

/** Distributive Omit so per-product sugar (`client.data.buy({...})`) needs no `product` field. */
export type WithoutProduct<T> = T extends unknown ? Omit<T, 'product'> : never;

export interface WaitOptions {
	timeoutMs?: number;
	intervalMs?: number;
	signal?: AbortSignal;
}

export interface BuyOptions {
	waitForFinal?: boolean | WaitOptions;
	/**
	 * Opt-in: one safe re-send after reconcile proved nothing was charged (a proven not_charged only, never an unknown
	 * outcome).
	 */
	retryIfNotCharged?: boolean;
	signal?: AbortSignal;
	/**
	 * The customer_ref to send with this purchase, chosen by the caller before it is sent (1 to 64 printable
	 * characters, no spaces; sent whatever the client's `customerRef` setting). A caller that journals it
	 * first still knows it after a crash mid-purchase, and passes it to `reconcile({ customerRef })`: where
	 * the site echoes it, the record carrying it is proven this purchase's. A re-send after a proven refusal
	 * (retryIfNotCharged, another encoding) carries the same ref. Bulk SMS: only for a send of one batch.
	 */
	customerRef?: string;
}

/** A record another order owns (a journal row, a previous run's output). */
export interface ClaimedRecordInput {
	id?: number | null;
	ident?: string | null;
	/** The record's create_date as received; with `sentAt` it teaches a fresh process the server's clock. */
	createdAt?: string | null;
	/** When that order's POST was sent. */
	sentAt?: Date | number | null;
}

export interface ReconcileOptions {
	/**
	 * When the POST was sent (or, after a crash, just before it was sent): a Date, epoch ms or an ISO time (an
	 * unknown_outcome's `details.sentAt`).
	 */
	sentAt: Date | string | number;
	/** Record ids already accounted for (other orders); never adopted. */
	excludeIds?: number[];
	/** Records of this product other orders own (ids/idents, e.g. every vendor record in your journal); never adopted. */
	claimed?: ClaimedRecordInput[];
	/** How many other open orders of yours are identical to this one: a lone matching record could be theirs. */
	identicalPending?: number;
	/**
	 * The customer_ref the purchase was sent with (an unknown_outcome's `details.customerRef`; null: sent
	 * without one). Left out: not known, so records carrying any ref stay candidates (never "not charged" by them).
	 */
	customerRef?: string | null;
	/** Override the client's reconcile.waitMs (0 = one read only). */
	waitMs?: number;
	signal?: AbortSignal;
}
