/** Shared pieces of the product modules: record parsing, network resolution, the module interface. */
import { z } from 'zod';
import type { CatalogIndex } from '../catalog';
import { VtuBadResponseError, VtuInvalidInputError } from '../errors';
import { money, tryParseKobo } from '../money';
import { canonicalNetwork } from '../schemas/catalog';
import { normalizeStatus, zId, zodSummary } from '../schemas/common';
import type { Money, NetworkInfo, Product, PurchaseQuote, PurchaseResult, ResultPath, TransactionStatus } from '../types';
import { isRecord } from '../util';

export interface ClientSettings {
  meterType: 'name' | 'number';
  smsBatchSize: number;
}

/** How reconciliation recognises the record of a purchase. */
export interface MatchSpec {
  /** Normalised recipient to compare with `PurchaseResult.recipient` (null: not compared). */
  recipient: string | null;
  /** Term for `?search=` (null: the product is not searchable by recipient). */
  search: string | null;
  /** Plan / amount / quantity comparison. */
  test(r: PurchaseResult): boolean;
}

export interface PreparedPurchase {
  product: Product;
  path: string;
  body: Record<string, unknown>;
  quote: PurchaseQuote;
  match: MatchSpec;
}

export interface ProductModule<Req = unknown> {
  product: Product;
  /** Collection path with trailing slash, e.g. /api/data/ */
  path: string;
  /** Detail route /api/<svc>/<id> exists (no trailing slash). */
  hasDetail: boolean;
  prepare(req: Req, idx: CatalogIndex, settings: ClientSettings): PreparedPurchase;
  parse(raw: unknown, path: ResultPath): PurchaseResult;
}

export function invalid(field: string, message: string): VtuInvalidInputError {
  return new VtuInvalidInputError(message, { field });
}

/** Remove `password` anywhere, and `pin` of a user payload (objects having a username or under `user`). */
export function scrubRaw(v: unknown, depth = 0, parentKey = ''): unknown {
  if (depth > 6 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => scrubRaw(x, depth + 1, parentKey));
  const o = v as Record<string, unknown>;
  const userLike = parentKey === 'user' || 'username' in o || 'Account_Balance' in o;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) {
    if (/^password$/i.test(k)) continue;
    if (userLike && /^(pin|transaction_pin|token|key)$/i.test(k)) continue;
    out[k] = scrubRaw(x, depth + 1, k);
  }
  return out;
}

const zBase = z
  .object({
    id: zId,
    Status: z.string().optional(),
    status: z.string().optional(),
    ident: z.union([z.string(), z.number(), z.null()]).optional(),
    create_date: z.union([z.string(), z.null()]).optional(),
  })
  .passthrough();

export interface BaseRecord {
  id: number;
  status: TransactionStatus;
  ident: string | null;
  createdAt: string | null;
  o: Record<string, unknown>;
}

export function parseBase(raw: unknown, product: Product): BaseRecord {
  const p = zBase.safeParse(raw);
  if (!p.success) {
    throw new VtuBadResponseError(`The ${product} record has an unexpected shape: ${zodSummary(p.error)}`, { details: { product } });
  }
  const st = normalizeStatus(p.data.Status ?? p.data.status);
  if (!st) {
    throw new VtuBadResponseError(`The ${product} record has no known Status (got ${JSON.stringify(p.data.Status ?? p.data.status ?? null)})`, { details: { product } });
  }
  const ident = p.data.ident == null || p.data.ident === '' ? null : String(p.data.ident);
  return { id: p.data.id, status: st, ident, createdAt: p.data.create_date ?? null, o: p.data as Record<string, unknown> };
}

export function m(v: unknown): Money | null {
  const k = tryParseKobo(v, true);
  return k === null ? null : money(k);
}

export function firstMoney(...vals: unknown[]): Money | null {
  for (const v of vals) {
    if (v === undefined || v === null || v === '') continue;
    const r = m(v);
    if (r) return r;
  }
  return null;
}

export function text(v: unknown): string {
  return v == null ? '' : String(v);
}

/** Amount charged: explicit field, else balance difference, else zero. */
export function charged(explicit: Money | null, before: Money | null, after: Money | null, fallback?: Money | null): Money {
  if (explicit) return explicit;
  if (before && after && before.kobo > after.kobo) return money(before.kobo - after.kobo);
  return fallback ?? money(0);
}

export function result(
  product: Product,
  b: BaseRecord,
  path: ResultPath,
  f: { amount: Money; before: Money | null; after: Money | null; recipient: string | null; details: Record<string, unknown>; message?: string },
): PurchaseResult {
  return {
    product,
    id: b.id,
    ident: b.ident,
    status: b.status,
    amount: f.amount,
    balanceBefore: f.before,
    balanceAfter: f.after,
    recipient: f.recipient,
    details: f.details,
    message: f.message ?? text(b.o.api_response ?? b.o.message ?? b.o.response ?? ''),
    createdAt: b.createdAt,
    path,
    raw: scrubRaw(b.o),
  };
}

export function resolveNetwork(idx: CatalogIndex, network: unknown, field = 'network'): NetworkInfo {
  let n: NetworkInfo | undefined;
  if (typeof network === 'number' || (typeof network === 'string' && /^\s*\d+\s*$/.test(network))) n = idx.networkById.get(Number(network));
  else if (typeof network === 'string') n = idx.networkByName.get(canonicalNetwork(network));
  if (!n) {
    const list = idx.catalog.networks.map((x) => `${x.name} (${x.id})`).join(', ');
    throw invalid(field, `${field} ${JSON.stringify(network ?? null)} is not a network of this site. Use one of: ${list}.`);
  }
  return n;
}

export function requireInt(v: unknown, field: string, what: string): number {
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) {
    throw invalid(field, `${field} must be a positive whole number (${what}); got ${JSON.stringify(v ?? null)}.`);
  }
  return n;
}

export function requireQuantity(v: unknown, field: string, min: number, max: number): number {
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw invalid(field, `${field} must be a whole number from ${min} to ${max}; got ${JSON.stringify(v ?? null)}.`);
  }
  return n;
}

export function requireDigits(v: unknown, field: string, what: string, min: number, max: number): string {
  const s = typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' ? v.replace(/[\s-]/g, '') : '';
  if (!/^\d+$/.test(s) || s.length < min || s.length > max) {
    throw invalid(field, `${field} must be the ${what}: ${min === max ? min : `${min}–${max}`} digits, no letters; got ${JSON.stringify(v ?? null)}.`);
  }
  return s;
}

export function isRec(v: unknown): v is Record<string, unknown> {
  return isRecord(v);
}
