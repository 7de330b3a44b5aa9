export interface Logger {
	debug?(msg: string, meta?: Record<string, unknown>): void;
	info?(msg: string, meta?: Record<string, unknown>): void;
	warn?(msg: string, meta?: Record<string, unknown>): void;
	error?(msg: string, meta?: Record<string, unknown>): void;
}

export function snippet(body: string, max = 200): string {
	const s = body.replace(/\s+/g, ' ').trim();
	return s.length > max ? s.slice(0, max) + '…' : s;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Remove keys that must never be surfaced (user password hash, transaction pin, token keys). */
export function scrubSensitive(v: unknown, depth = 0): unknown {
	if (depth > 6 || v === null || typeof v !== 'object') return v;
	if (Array.isArray(v)) return v.map((x) => scrubSensitive(x, depth + 1));
	const out: Record<string, unknown> = {};
	for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
		if (/^(password|pin|key|token_key|auth_token|api_key)$/i.test(k)) continue;
		out[k] = scrubSensitive(x, depth + 1);
	}
	return out;
}
