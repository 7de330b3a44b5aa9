/**
 * Every check that can refuse a purchase, run before the Confirm button is shown: the price
 * (client.quote), the per-purchase and daily limits, the PIN (set, not locked) and the wallet
 * balance (with the shortfall); and whether the same purchase was made minutes ago.
 * The journal checks the limits again inside the created→sent transaction.
 */
import type { Services } from '../context';
import { naira } from '../orders';
import type { BotPurchaseRequest } from '../vtu';
import type { ConfirmMeta } from './confirm';
import type { Place } from './keyboards';
import { failText } from './pickers';
import { clockText } from './ui';

export type Checked =
  | { ok: true; kobo: number; balanceKobo: number | null; repeat: { ago: string; ref: string } | null }
  | { ok: false; text: string; retry?: { place: Place; label: string } };

/** States of an order that was (or may have been) bought: a new identical one is a repeat. */
const BOUGHT = new Set(['sent', 'successful', 'processing', 'unknown']);

export function agoText(ms: number): string {
  const sec = Math.max(1, Math.round(ms / 1000));
  return sec < 90 ? `${sec} s` : `${Math.round(sec / 60)} min`;
}

export function purchaseChecks(s: Services) {
  function limitRefusal(userId: number, kobo: number): string | null {
    if (kobo > s.cfg.maxPurchaseKobo) return `${naira(kobo)} is above your per-purchase limit of ${naira(s.cfg.maxPurchaseKobo)}. Nothing was bought.`;
    const spent = s.journal.spentToday(userId);
    if (spent + kobo <= s.cfg.dailyLimitKobo) return null;
    const left = Math.max(0, s.cfg.dailyLimitKobo - spent);
    return `${naira(kobo)} would exceed your daily limit of ${naira(s.cfg.dailyLimitKobo)} (${naira(left)} left today). Nothing was bought.`;
  }

  function pinRefusal(userId: number): Checked | null {
    if (!s.cfg.pinRequired) return null;
    if (!s.pins.has(userId)) {
      return { ok: false, text: 'A PIN is required for purchases. Set one first, then try again. Nothing was bought.', retry: { place: 'setpin', label: '🔒 Set PIN' } };
    }
    const locked = s.pins.lockedUntil(userId);
    if (locked) return { ok: false, text: `Purchases are locked after too many wrong PINs until ${clockText(locked)} (an admin can unlock you sooner). Nothing was bought.` };
    return null;
  }

  function recentSame(userId: number, req: BotPurchaseRequest, meta: ConfirmMeta): { ago: string; ref: string } | null {
    const now = s.clock.now();
    const same = s.journal
      .recentForUser(userId, 20)
      .find((o) => o.createdAt >= now - s.cfg.repeatWindowMs && BOUGHT.has(o.state) && o.product === req.product && o.recipient === meta.recipient && o.description === meta.description);
    return same ? { ago: agoText(now - same.createdAt), ref: same.ident ?? same.id } : null;
  }

  /** Runs inside conversation.external: price, limits, PIN, balance, repeat. */
  async function check(userId: number, req: BotPurchaseRequest, meta: ConfirmMeta): Promise<Checked> {
    let kobo: number;
    try {
      kobo = (await s.client.quote(req)).amount.kobo;
    } catch (e) {
      return { ok: false, text: `${failText(s, 'Cannot buy this', e)} Nothing was bought.` };
    }
    const limit = limitRefusal(userId, kobo);
    if (limit) return { ok: false, text: limit };
    const pin = pinRefusal(userId);
    if (pin) return pin;
    let balanceKobo: number | null = null;
    try {
      balanceKobo = (await s.walletBalance()).kobo;
    } catch (e) {
      // Not a refusal: the vendor refuses a purchase the wallet cannot pay, and says so.
      s.logger.warn('balance check before confirm failed', { err: e instanceof Error ? e.message : String(e) });
    }
    if (balanceKobo !== null && balanceKobo < kobo) {
      const short = naira(kobo - balanceKobo);
      return { ok: false, text: `Not enough in the wallet: it has ${naira(balanceKobo)}, this costs ${naira(kobo)} (${short} short). Fund the wallet, then tap Try again. Nothing was bought.` };
    }
    return { ok: true, kobo, balanceKobo, repeat: recentSame(userId, req, meta) };
  }

  return { check };
}
