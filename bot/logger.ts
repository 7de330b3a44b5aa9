/**
 * Minimal structured logger (JSON lines) with secret redaction.
 * Every string that leaves through it has the configured secrets replaced by "[redacted]".
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
	debug(msg: string, meta?: Record<string, unknown>): void;
	info(msg: string, meta?: Record<string, unknown>): void;
	warn(msg: string, meta?: Record<string, unknown>): void;
	error(msg: string, meta?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function redactor(secrets: string[]): (s: string) => string {
	const list = [...new Set(secrets.filter((s) => s && s.length >= 6))].sort((a, b) => b.length - a.length);
	return (s: string) => {
		let out = s;
		for (const secret of list) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
		return out;
	};
}

function errorToJson(e: unknown): unknown {
	if (e instanceof Error) {
		const o: Record<string, unknown> = { name: e.name, message: e.message };
		const code = (e as { code?: unknown }).code;
		if (code !== undefined) o.code = code;
		const desc = (e as { description?: unknown }).description;
		if (desc !== undefined) o.description = desc;
		const inner = (e as { error?: unknown }).error;
		if (inner !== undefined && inner !== e) o.error = errorToJson(inner);
		if (e.stack) o.stack = e.stack.split('\n').slice(0, 6).join('\n');
		return o;
	}
	return e;
}

export function createLogger(opts: { level?: LogLevel; secrets?: string[]; write?: (line: string) => void }): Logger {
	const min = ORDER[opts.level ?? 'info'];
	const redact = redactor(opts.secrets ?? []);
	const write = opts.write ?? ((line: string) => process.stderr.write(line + '\n'));
	const emit = (level: LogLevel, msg: string, meta?: Record<string, unknown>) => {
		if (ORDER[level] < min) return;
		const rec: Record<string, unknown> = { t: new Date().toISOString(), level, msg };
		if (meta)
			for (const [k, v] of Object.entries(meta)) rec[k] = v instanceof Error || k === 'err' ? errorToJson(v) : v;
		let line: string;
		try {
			line = JSON.stringify(rec);
		} catch {
			line = JSON.stringify({ t: rec.t, level, msg });
		}
		write(redact(line));
	};
	return {
		debug: (m, meta) => emit('debug', m, meta),
		info: (m, meta) => emit('info', m, meta),
		warn: (m, meta) => emit('warn', m, meta),
		error: (m, meta) => emit('error', m, meta),
	};
}

/** Mask a phone number for logs: 0803***4567. */
export function maskPhone(p: string | null | undefined): string {
	if (!p) return '';
	return p.length >= 8 ? `${p.slice(0, 4)}***${p.slice(-4)}` : '***';
}
