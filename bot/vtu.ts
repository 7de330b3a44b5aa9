/**
 * The slice of the VTU client the bot uses (client/API.md). The bot never builds API requests:
 * it only calls these methods. Typed structurally so tests can pass the real VtuClient.
 */
import type {
  AirtimeDiscount,
  ClaimedRecordInput,
  DataPlan,
  Money,
  NetworkInfo,
  PurchaseQuote,
  PurchaseResult,
  SmsPlan,
  SmsRates,
} from '../client/types';

export type { Money, NetworkInfo, PurchaseQuote, PurchaseResult, SmsPlan, DataPlan };

export type BotPurchaseRequest =
  | { product: 'data'; network: string | number; plan: number; phone: string; ported?: boolean }
  | { product: 'airtime'; network: string | number; amount: number | string; phone: string; type?: 'VTU' | 'Share and Sell'; ported?: boolean }
  | { product: 'sms'; sender: string; message: string; recipients: string | string[]; dnd?: boolean };

export interface VtuClientLike {
  user: { balance(): Promise<Money> };
  catalog: {
    networks(): Promise<NetworkInfo[]>;
    airtime(): Promise<AirtimeDiscount[]>;
    sms(): Promise<SmsRates>;
  };
  quote(req: BotPurchaseRequest): Promise<PurchaseQuote>;
  buy(req: BotPurchaseRequest, opts?: { waitForFinal?: boolean | { timeoutMs?: number; intervalMs?: number }; signal?: AbortSignal }): Promise<PurchaseResult>;
  reconcile(req: BotPurchaseRequest, opts: { sentAt: Date; claimed?: ClaimedRecordInput[]; identicalPending?: number }): Promise<PurchaseResult>;
  transactions: { refresh(result: PurchaseResult): Promise<PurchaseResult> };
  sms: { plan(req: { sender: string; message: string; recipients: string | string[]; dnd?: boolean }): Promise<SmsPlan> };
}

/** Errors of the client carry a stable `code`; the bot only reads that. */
export function errorCode(e: unknown): string | undefined {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : undefined;
}

export { formatPhone, detectNetwork, normalizePhone, tryNormalizePhone } from '../client/phone';
export { formatNaira, money, parseNaira, tryParseKobo } from '../client/money';
export { checkSender, splitRecipients } from '../client/products/sms';
