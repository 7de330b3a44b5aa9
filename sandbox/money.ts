/**
 * Money helpers. Everything inside the sandbox is integer kobo; these are the only
 * places that turn kobo into wire strings/numbers or parse naira input.
 */

/** Parse a naira amount given as number or string ("250", "250.5", 250.75) into kobo. null if not a valid amount. */
export function parseNaira(input: unknown): number | null {
	let s: string;
	if (typeof input === 'number') {
		if (!Number.isFinite(input) || input < 0 || input > 1e12) return null;
		s = String(input);
	} else if (typeof input === 'string') {
		s = input.trim();
	} else return null;
	const m = /^(\d{1,12})(?:\.(\d{1,2})0*)?$/.exec(s);
	if (!m) return null;
	const frac = m[2] ? (m[2] + '0').slice(0, 2) : '00';
	return Number(m[1]) * 100 + Number(frac);
}

/** 123450 → "1234.50" (seed dialect, and every admin/ledger string). */
export function naira2(kobo: number): string {
	const neg = kobo < 0;
	const k = Math.abs(kobo);
	const s = `${Math.floor(k / 100)}.${String(k % 100).padStart(2, '0')}`;
	return neg ? `-${s}` : s;
}

/** Python str(float) look-alike used by the family dialect: 100000 → "1000.0", 123450 → "1234.5". */
export function pyFloat(kobo: number): string {
	const s = naira2(kobo);
	if (s.endsWith('00')) return s.slice(0, -1);
	return s.endsWith('0') ? s.slice(0, -1) : s;
}

/** Kobo as a JSON number of naira (family `Account_Balance`, raw plan prices). Display only. */
export function nairaNumber(kobo: number): number {
	return kobo / 100;
}

/** Whole-naira display: 10000 → "100", 10050 → "100.5" (airtime `plan_amount`). */
export function nairaShort(kobo: number): string {
	return kobo % 100 === 0 ? String(kobo / 100) : pyFloat(kobo);
}

/** Percent as a decimal string ("97.5") → basis points of a percent (9750), exact. */
export function percentToBp(p: string): number {
	const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(p);
	if (!m) throw new Error(`bad percent ${p}`);
	return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Basis points back to the shortest decimal string: 9750 → "97.5", 9800 → "98". */
export function bpToPercent(bp: number): string {
	const whole = Math.floor(bp / 100);
	const frac = bp % 100;
	if (frac === 0) return String(whole);
	return `${whole}.${String(frac).padStart(2, '0').replace(/0$/, '')}`;
}

/** amount × percent / 100, rounded half up to the kobo, in integers only. */
export function applyPercent(amountKobo: number, bp: number): number {
	return Math.floor((amountKobo * bp + 5000) / 10000);
}
