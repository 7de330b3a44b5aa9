/** VtuClient: one area per product over one HttpCore, one catalogue cache and one purchase mechanism. */
import { walletPage, type WalletEntry } from './wallet';
import { CatalogCache, cacheKey, type CatalogIndex } from './catalog';
import { VtuError, VtuInvalidInputError, VtuNotFoundError, inspectCustom, redactingLogger } from './errors';
import { HttpCore, type RetryOptions } from './http';
import { money, tryParseKobo } from './money';
import { PRODUCTS, productModule } from './products';
import type { ClientSettings, PreparedPurchase, ProductModule, PurchaseEnv } from './products/common';
import { atSite, invalid, recordId, resolveNetwork } from './products/common';
import { validateIuc } from './products/cable/validate';
import { validateMeter } from './products/electricity/validate';
import { validateIdentity } from './products/validate';
import { parseUserPayload } from './products/user';
import { planSms } from './products/sms/plan';
import { parseCustomerRef } from './input';
import { smsHistory } from './products/sms/send';
import { effectiveSmsRates, parseSmsRateOption, type SmsRateOption } from './products/sms/rate';
import {
	AccountRegistry,
	DEFAULT_RECONCILE,
	claim,
	executePurchase,
	fetchRecord,
	listPage,
	matchingRecords,
	reconcilePurchase,
	processAccounts,
	waitForFinal,
	type PurchaseContext,
	type ReconcileSettings,
} from './purchase';
import type { Clock, Sleep } from './runtime';
import type { Transport } from './transport';
import type {
	AirtimePurchase,
	BuyOptions,
	CablePurchase,
	Catalog,
	DataCouponPurchase,
	DataPlan,
	DataPurchase,
	ElectricityPurchase,
	ExamPinPurchase,
	IdentityResult,
	Money,
	Page,
	Product,
	PurchaseQuote,
	PurchaseRequest,
	PurchaseResult,
	RechargeCardPurchase,
	ReconcileOptions,
	SmsBatch,
	SmsPlan,
	SmsPurchase,
	UserProfile,
	ValidationResult,
	WaitOptions,
	WithoutProduct,
} from './types';
import type { Logger } from './util';

export interface VtuClientOptions {
	/** Site root, with or without trailing "/" or "/api". */
	baseUrl: string;
	token: string;
	/**
	 * How requests are sent (n8n: its request helpers; plain Node: `createNodeTransport()`, the
	 * default of the `VtuClient` exported by client/index.ts).
	 */
	transport: Transport;
	/** The host's timer (n8n: n8n-workflow's; plain Node: `timerSleep`, client/index.ts's default). */
	sleep: Sleep;
	/** Default: Date.now. */
	now?: Clock;
	/** Per request. Default 30 000. */
	timeoutMs?: number;
	logger?: Logger;
	/** Catalogue cache TTL per baseUrl + token. Default 60 000. */
	catalogTtlMs?: number;
	/** How MeterType is sent: 'name' = "Prepaid"/"Postpaid" (default), 'number' = 1/2. */
	meterType?: 'name' | 'number';
	/** Recipients per sendsms POST. Default 500. */
	smsBatchSize?: number;
	/**
	 * The site's SMS tariff in naira per page per number (the credential's rate fields), used where the site
	 * publishes none, e.g. { perPage: '2.50', dndPerPage: '3.50' }. Unset: learned from the first batch's
	 * wallet change; until then quotes assume the highest tariff seen in the family and say so (rateSource).
	 */
	smsRates?: SmsRateOption;
	reconcile?: Partial<ReconcileSettings>;
	retry?: RetryOptions;
	/**
	 * Opt-in, per credential: send a fresh `customer_ref` with every purchase. Unverified on real sites
	 * (docs/real-sites.md §7); where a site stores and echoes it, a reconciled record carrying ours is proven
	 * ours and records carrying another reference are never adopted. A site that ignores it costs nothing.
	 */
	customerRef?: boolean;
	/**
	 * Where this client keeps what it knows about the account (claims, in-flight purchases, the server's
	 * clock). Default: the process-wide registry, shared by every client of the process, so two clients of
	 * one account never adopt the same record. Pass `new AccountRegistry()` for a process of its own.
	 */
	accounts?: AccountRegistry;
}

/** A product's area (`client.data`, `client.cable`, …): buy and quote with the product filled in. */
export interface ProductArea<T extends PurchaseRequest> {
	buy(r: WithoutProduct<T>, o?: BuyOptions): Promise<PurchaseResult>;
	quote(r: WithoutProduct<T>): Promise<PurchaseQuote>;
}

export class VtuClient {
	private readonly http: HttpCore;
	private readonly cache: CatalogCache;
	private readonly ctx: PurchaseContext;
	private readonly settings: ClientSettings;
	private readonly env: PurchaseEnv;

	readonly user: { get(): Promise<UserProfile>; balance(): Promise<Money> };
	/**
	 * The wallet history (`/api/Wallet_summary/`, newest first) where the site has one: a 404 means it has
	 * none (not_found). A bare-list build answers every row at once (`next` null) and ignores `search`.
	 */
	readonly wallet: { history(o?: { page?: number; search?: string }): Promise<Page<WalletEntry>> };
	readonly catalog: {
		get(opts?: { fresh?: boolean }): Promise<Catalog>;
		dataPlans(network: string | number): Promise<DataPlan[]>;
		networks(): Promise<Catalog['networks']>;
		cable(): Promise<Catalog['cable']>;
		discos(): Promise<Catalog['discos']>;
		exams(): Promise<Catalog['exams']>;
		airtime(): Promise<Catalog['airtime']>;
		sms(): Promise<Catalog['sms']>;
		recharge(): Promise<Catalog['recharge']>;
		invalidate(): void;
	};
	readonly data: ProductArea<DataPurchase>;
	readonly airtime: ProductArea<AirtimePurchase>;
	readonly cable: ProductArea<CablePurchase> & {
		validate(r: { provider: string | number; iuc: string }): Promise<ValidationResult>;
	};
	readonly electricity: ProductArea<ElectricityPurchase> & {
		validate(r: {
			disco: string | number;
			meter: string;
			meterType: 'prepaid' | 'postpaid';
		}): Promise<ValidationResult>;
	};
	readonly examPins: ProductArea<ExamPinPurchase> & {
		get(id: number): Promise<PurchaseResult>;
	};
	readonly rechargeCards: ProductArea<RechargeCardPurchase>;
	readonly dataCoupons: ProductArea<DataCouponPurchase>;
	readonly sms: {
		plan(r: WithoutProduct<SmsPurchase>): Promise<SmsPlan>;
		send(r: WithoutProduct<SmsPurchase>, o?: BuyOptions): Promise<PurchaseResult[]>;
		history(o?: { page?: number }): Promise<Page<SmsBatch>>;
	};
	readonly identity: {
		validateBvn(bvn: string): Promise<IdentityResult>;
		validateNin(nin: string): Promise<IdentityResult>;
	};
	readonly transactions: {
		get(product: Product, id: number): Promise<PurchaseResult>;
		findByIdent(product: Product, ident: string): Promise<PurchaseResult>;
		list(product: Product, o?: { page?: number; search?: string }): Promise<Page<PurchaseResult>>;
		refresh(r: PurchaseResult): Promise<PurchaseResult>;
		waitForFinal(r: PurchaseResult, o?: WaitOptions): Promise<PurchaseResult>;
	};

	constructor(opts: VtuClientOptions) {
		if (!opts || typeof opts !== 'object')
			throw new VtuInvalidInputError('VtuClient needs { baseUrl, token }.', { field: 'options' });
		// every log line of the client, whichever part writes it, passes through redaction
		const logger = redactingLogger(opts.logger);
		this.http = new HttpCore({
			baseUrl: opts.baseUrl,
			token: opts.token,
			transport: opts.transport,
			sleep: opts.sleep,
			now: opts.now ?? Date.now,
			timeoutMs: opts.timeoutMs ?? 30_000,
			logger,
			retry: opts.retry,
		});
		const smsRateOption = parseSmsRateOption(opts.smsRates);
		this.settings = {
			meterType: opts.meterType ?? 'name',
			smsBatchSize: opts.smsBatchSize ?? 500,
			baseUrl: this.http.baseUrl,
			smsRates: (i) => effectiveSmsRates(i.catalog.sms, this.http.baseUrl, smsRateOption),
		};
		const account = cacheKey(this.http.baseUrl, opts.token.trim());
		this.cache = new CatalogCache(this.http, account, opts.catalogTtlMs ?? 60_000, logger);
		this.ctx = {
			http: this.http,
			catalog: this.cache,
			settings: this.settings,
			reconcile: { ...DEFAULT_RECONCILE, ...(opts.reconcile ?? {}) },
			logger,
			account: (opts.accounts ?? processAccounts()).account(this.http.baseUrl, account),
			customerRef: opts.customerRef === true,
		};
		this.env = { ctx: this.ctx, index: () => this.cache.get(), walletKobo: () => this.walletKobo() };

		const idx = () => this.cache.get();
		this.user = {
			get: async () => parseUserPayload(await this.http.get('/api/user/')).profile,
			balance: async () => (await this.user.get()).balance,
		};
		this.wallet = {
			history: async (o) => {
				const { page, search } = walletQuery(o);
				const p = await walletPage(this.ctx, { page, search });
				return { count: p.count, next: p.next, items: p.items };
			},
		};
		this.catalog = this.catalogArea();
		const sugar = <T extends PurchaseRequest>(product: T['product']) => this.productArea<T>(product);
		this.data = sugar<DataPurchase>('data');
		this.airtime = sugar<AirtimePurchase>('airtime');
		this.cable = { ...sugar<CablePurchase>('cable'), validate: async (r) => validateIuc(this.http, await idx(), r) };
		this.electricity = {
			...sugar<ElectricityPurchase>('electricity'),
			validate: async (r) => validateMeter(this.http, await idx(), r),
		};
		this.examPins = {
			...sugar<ExamPinPurchase>('exam_pin'),
			get: async (id) => fetchRecord(this.ctx, PRODUCTS.exam_pin, recordId(id)),
		};
		this.rechargeCards = sugar<RechargeCardPurchase>('recharge_card');
		this.dataCoupons = sugar<DataCouponPurchase>('data_coupon');
		this.sms = {
			plan: async (r) => planSms(r, this.settings.smsRates(await idx()), this.settings.smsBatchSize),
			send: (r, o) => this.send({ ...r, product: 'sms' }, o ?? {}, this.settings.smsBatchSize),
			history: (o) => smsHistory(this.http, o?.page),
		};
		this.identity = {
			validateBvn: (n) => validateIdentity(this.http, 'bvn', n),
			validateNin: (n) => validateIdentity(this.http, 'nin', n),
		};
		this.transactions = this.transactionsArea();
	}

	private productArea<T extends PurchaseRequest>(product: T['product']): ProductArea<T> {
		return {
			buy: (r: WithoutProduct<T>, o?: BuyOptions) => this.buy({ ...r, product } as unknown as PurchaseRequest, o),
			quote: (r: WithoutProduct<T>) => this.quote({ ...r, product } as unknown as PurchaseRequest),
		};
	}

	private catalogArea(): VtuClient['catalog'] {
		const idx = () => this.cache.get();
		return {
			get: async (o) => {
				const i = await this.cache.get({ fresh: o?.fresh });
				return { ...i.catalog, sms: this.settings.smsRates(i) };
			},
			dataPlans: async (network) => resolveNetwork(await idx(), network).plans,
			networks: async () => (await idx()).catalog.networks,
			cable: async () => (await idx()).catalog.cable,
			discos: async () => (await idx()).catalog.discos,
			exams: async () => (await idx()).catalog.exams,
			airtime: async () => (await idx()).catalog.airtime,
			sms: async () => this.settings.smsRates(await idx()),
			recharge: async () => (await idx()).catalog.recharge,
			invalidate: () => this.cache.invalidate(),
		};
	}

	private transactionsArea(): VtuClient['transactions'] {
		return {
			get: async (product, id) => fetchRecord(this.ctx, this.module(product), recordId(id)),
			findByIdent: (product, ident) => this.findByIdent(product, ident),
			list: async (product, o) => {
				const p = await listPage(this.ctx, this.module(product), { page: o?.page, search: o?.search });
				return { count: p.count, next: p.next, items: p.items };
			},
			refresh: (r) => this.refresh(r),
			// r may come from outside (an n8n item): its id goes into a URL, so it must be a record id
			waitForFinal: async (r, o) =>
				waitForFinal(this.ctx, this.module(r?.product), r.id === null ? r : { ...r, id: recordId(r.id) }, o),
		};
	}

	/** The normalised base URL (no token). */
	get baseUrl(): string {
		return this.http.baseUrl;
	}

	/** console.log(client) / util.inspect(client): which site, never the token or the headers. */
	[inspectCustom](): string {
		return `VtuClient { baseUrl: ${JSON.stringify(this.http.baseUrl)} }`;
	}

	/** JSON.stringify(client): the same, as JSON. */
	toJSON(): { baseUrl: string } {
		return { baseUrl: this.http.baseUrl };
	}

	/** The product's module, reading records at the route this site serves it (where builds differ). */
	private module(product: Product): ProductModule {
		return atSite(productModule(product), this.http.baseUrl);
	}

	private async prepare(
		req: PurchaseRequest,
	): Promise<{ module: ProductModule; prep: PreparedPurchase; idx: CatalogIndex }> {
		if (!req || typeof req !== 'object')
			throw invalid('product', 'purchase request must be an object with a product field.');
		this.module(req.product); // an unknown product fails before the catalogue is fetched
		return this.prepareWith(req, await this.cache.get());
	}

	/** `prepare` once the catalogue is at hand (synchronous: `buy` calls it directly when the cache is fresh). */
	private prepareWith(
		req: PurchaseRequest,
		idx: CatalogIndex,
	): { module: ProductModule; prep: PreparedPurchase; idx: CatalogIndex } {
		const module = this.module(req.product);
		return { module, prep: module.prepare(req, idx, this.settings), idx };
	}

	/** Validate and price locally (catalogue); sends nothing. */
	async quote(req: PurchaseRequest): Promise<PurchaseQuote> {
		return (await this.prepare(req)).prep.quote;
	}

	/** The safe purchase: one request, one POST (bulk SMS: one POST for all its recipients). */
	async buy(req: PurchaseRequest, opts: BuyOptions = {}): Promise<PurchaseResult> {
		if (opts.customerRef !== undefined) parseCustomerRef(opts.customerRef); // refused before anything is sent
		const sender = req && typeof req === 'object' ? this.module(req.product) : undefined;
		if (sender?.send) return (await this.send(req, opts, Number.MAX_SAFE_INTEGER))[0];
		// a fresh catalogue is used without awaiting it: two microtask hops fewer per purchase (bench:client)
		const idx = req && typeof req === 'object' ? this.cache.ready() : undefined;
		const { module, prep } = idx ? this.prepareWith(req, idx) : await this.prepare(req);
		const r = await executePurchase(this.ctx, module, prep, {
			request: req,
			signal: opts.signal,
			retryIfNotCharged: opts.retryIfNotCharged,
			customerRef: opts.customerRef,
		});
		return opts.waitForFinal ? this.maybeWait(module, r, opts) : r;
	}

	/** A product that sends its purchase its own way (ProductModule.send): a batch, or a re-send in another encoding. */
	private async send(req: PurchaseRequest, opts: BuyOptions, batchSize: number): Promise<PurchaseResult[]> {
		const module = this.module(req.product);
		if (!module.send) throw invalid('product', `${req.product} is bought with client.buy.`);
		if (opts.customerRef !== undefined) parseCustomerRef(opts.customerRef);
		const results = await module.send(this.env, req, opts, batchSize);
		return opts.waitForFinal ? Promise.all(results.map((r) => this.maybeWait(module, r, opts))) : results;
	}

	private async maybeWait(module: ProductModule, r: PurchaseResult, opts: BuyOptions): Promise<PurchaseResult> {
		if (!opts.waitForFinal) return r;
		const w = typeof opts.waitForFinal === 'object' ? opts.waitForFinal : {};
		try {
			return await waitForFinal(this.ctx, module, r, { ...w, signal: w.signal ?? opts.signal });
		} catch (e) {
			// The purchase is made and known: a failed status read must not turn it into an error that reads
			// like "nothing happened". Return it as it stands (processing); transactions.refresh() settles it.
			if (!(e instanceof VtuError)) throw e;
			this.ctx.logger?.warn?.(
				`${module.product}: could not read the final status (${e.code}); returning the purchase as ${r.status}`,
			);
			return r;
		}
	}

	/**
	 * The account's records that answer this request, created since `since` (claimed by an order or not),
	 * newest first. Sends no purchase. For "was this already bought?" checks (client/existing.ts). Reads
	 * the list back until it reaches records older than `since` (at most `reconcile.readBackPages` pages;
	 * past that: unknown_outcome). Calls given the same `listCache` read the unfiltered list once.
	 */
	async matchingRecords(
		req: PurchaseRequest,
		opts: { since: Date; signal?: AbortSignal; listCache?: Map<Product, Promise<PurchaseResult[]>> },
	): Promise<PurchaseResult[]> {
		if (!opts?.since || Number.isNaN(new Date(opts.since).getTime()))
			throw invalid('since', 'matchingRecords needs { since: Date }.');
		const { module, prep } = await this.prepare(req);
		return matchingRecords(this.ctx, module, prep, new Date(opts.since).getTime(), opts.signal, opts.listCache);
	}

	/**
	 * Marks records as owned (e.g. found by an "already bought?" check): no reconciliation in this process adopts them.
	 */
	claimRecords(records: PurchaseResult[]): void {
		for (const r of records) claim(this.ctx, r);
	}

	/**
	 * Resolve a purchase whose outcome is unknown (an unknown_outcome's `details.request` and `sentAt`, a
	 * crash): its record (bought), or VtuNotChargedError once the whole window was read after the vendor's
	 * processing bound, or VtuUnknownOutcomeError again (still unclear). The record must match, be created
	 * within `reconcile.maxProcessingMs` of `sentAt`, and not be one of `claimed` / `excludeIds` (other
	 * orders' records): client/API.md "Who owns a record" and "Proof of not charged".
	 */
	async reconcile(req: PurchaseRequest, opts: ReconcileOptions): Promise<PurchaseResult> {
		if (!opts?.sentAt || Number.isNaN(new Date(opts.sentAt).getTime()))
			throw invalid(
				'sentAt',
				'reconcile needs { sentAt } (when the purchase was sent: a Date or an ISO time such as details.sentAt).',
			);
		const { module, prep } = await this.prepare(req);
		const sentAt = new Date(opts.sentAt).getTime();
		const claimed = [
			...(opts.excludeIds ?? []).map((id) => ({ id })),
			...(opts.claimed ?? []).map((c) => ({
				...c,
				sentAt: c.sentAt === undefined || c.sentAt === null ? null : new Date(c.sentAt).getTime(),
			})),
		];
		return reconcilePurchase(this.ctx, module, prep, {
			request: req,
			sentAt,
			claimed,
			identicalPending: opts.identicalPending,
			ref: opts.customerRef,
			waitMs: opts.waitMs,
			signal: opts.signal,
			cause: 'a lost answer',
		});
	}

	/* ------------------------------------------------------------ wallet -------------- */

	private async walletKobo(): Promise<number | null> {
		try {
			return (await this.user.balance()).kobo;
		} catch (e) {
			if (!(e instanceof VtuError)) throw e;
			return null; // no balance, no learning: the assumed rate stays (the safe side)
		}
	}

	/* ------------------------------------------------------------ transactions --------- */

	private async findByIdent(product: Product, ident: string): Promise<PurchaseResult> {
		const module = this.module(product);
		if (!ident || typeof ident !== 'string')
			throw invalid('ident', 'ident must be the server reference string, e.g. "Data9b8951f68-352".');
		const first = await listPage(this.ctx, module, { search: ident });
		const hit = first.items.find((r) => r.ident === ident);
		if (hit) return hit;
		for (let page = first.next, i = 1; page && i < Math.max(this.ctx.reconcile.maxPages, 5); i++) {
			const p = await listPage(this.ctx, module, { page });
			const h = p.items.find((r) => r.ident === ident);
			if (h) return h;
			page = p.next;
		}
		throw new VtuNotFoundError(`No ${product} record with ident ${JSON.stringify(ident)} among the newest records.`, {
			details: { product },
		});
	}

	private async refresh(r: PurchaseResult): Promise<PurchaseResult> {
		if (r.id === null) {
			if (r.ident) return this.findByIdent(r.product, r.ident);
			return r;
		}
		const fresh = await fetchRecord(this.ctx, this.module(r.product), recordId(r.id));
		const out: PurchaseResult = { ...fresh, path: r.path };
		if (fresh.status !== r.status)
			out.details = {
				...fresh.details,
				previousStatus: r.status,
				statusChanged: true,
				refunded: r.status === 'successful' && fresh.status === 'failed',
			};
		return out;
	}
}

export { money, tryParseKobo };

/** `wallet.history` options, strictly: a whole page number from 1, a search text of at most 100 characters. */
function walletQuery(o: unknown): { page?: number; search?: string } {
	if (o === undefined || o === null) return {};
	if (typeof o !== 'object') throw invalid('options', 'wallet.history takes { page?, search? }.');
	const { page, search } = o as { page?: unknown; search?: unknown };
	if (page !== undefined && (typeof page !== 'number' || !Number.isSafeInteger(page) || page < 1))
		throw invalid('page', 'page must be a whole number from 1 (e.g. 2).');
	if (search !== undefined && (typeof search !== 'string' || search.trim().length > 100))
		throw invalid('search', 'search must be a text of at most 100 characters (e.g. a phone number 08031234567).');
	return {
		page: page as number | undefined,
		search: typeof search === 'string' ? search.trim() || undefined : undefined,
	};
}
