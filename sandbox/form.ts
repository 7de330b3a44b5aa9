/**
 * DRF-like field parsing for request bodies: collects `{"field": ["message"]}` errors the
 * way serializers report them, with DRF's own texts, so clients see real-looking 400s.
 */
import { parseNaira } from './money';

export type Body = Record<string, unknown>;

const REQUIRED = 'This field is required.';
/** Option objects made once, not per field read. */
const PK = { pk: true };
const NO_OPTS = {};

export class Form {
	readonly errors: Record<string, string[]> = {};
	private hasErrors = false;

	constructor(readonly body: Body) {}

	get ok(): boolean {
		return !this.hasErrors;
	}

	fail(field: string, msg: string): undefined {
		(this.errors[field] ??= []).push(msg);
		this.hasErrors = true;
		return undefined;
	}

	private present(name: string, required: boolean): unknown {
		const v = this.body[name];
		if (v === undefined) return required ? this.fail(name, REQUIRED) : undefined;
		if (v === null) return this.fail(name, 'This field may not be null.');
		return v;
	}

	/** IntegerField / PrimaryKeyRelatedField: 5 or "5". */
	int(name: string, opts: { pk?: boolean; min?: number; required?: boolean } = NO_OPTS): number | undefined {
		const v = this.present(name, opts.required ?? true);
		if (v === undefined) return undefined;
		const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
		if (!Number.isSafeInteger(n)) {
			return this.fail(
				name,
				opts.pk
					? `Incorrect type. Expected pk value, received ${typeof v === 'string' ? 'str' : typeof v}.`
					: 'A valid integer is required.',
			);
		}
		if (opts.min !== undefined && n < opts.min)
			return this.fail(name, `Ensure this value is greater than or equal to ${opts.min}.`);
		return n;
	}

	/** PrimaryKeyRelatedField against a lookup table. */
	pk<T>(name: string, table: Map<number, T>): T | undefined {
		const id = this.int(name, PK);
		if (id === undefined) return undefined;
		const row = table.get(id);
		return row ?? this.fail(name, `Invalid pk "${id}" - object does not exist.`);
	}

	/** BooleanField: true/false, "true"/"false", 1/0 and friends. */
	bool(name: string, required = true): boolean | undefined {
		const v = this.present(name, required);
		if (v === undefined) return undefined;
		if (TRUE.has(v as never)) return true;
		if (FALSE.has(v as never)) return false;
		return this.fail(name, 'Must be a valid boolean.');
	}

	/** CharField (numbers are accepted and stringified, as DRF does). */
	str(name: string, opts: { required?: boolean; max?: number; blank?: boolean } = NO_OPTS): string | undefined {
		const v = this.present(name, opts.required ?? true);
		if (v === undefined) return undefined;
		if (typeof v !== 'string' && typeof v !== 'number') return this.fail(name, 'Not a valid string.');
		const s = String(v);
		if (s.trim() === '' && !opts.blank)
			return opts.required === false ? undefined : this.fail(name, 'This field may not be blank.');
		if (opts.max !== undefined && s.length > opts.max)
			return this.fail(name, `Ensure this field has no more than ${opts.max} characters.`);
		return s;
	}

	/** Digits-only CharField (smart card, meter numbers). */
	digits(name: string): string | undefined {
		const s = this.str(name);
		if (s === undefined) return undefined;
		return /^\d+$/.test(s) ? s : this.fail(name, 'Enter a valid number (digits only).');
	}

	/** ChoiceField; `aliases` maps extra accepted inputs to a choice. */
	choice<T extends string>(name: string, choices: readonly T[], aliases: Record<string, T> = {}): T | undefined {
		const v = this.present(name, true);
		if (v === undefined) return undefined;
		const s = String(v);
		if ((choices as readonly string[]).includes(s)) return s as T;
		// own properties only: "constructor", "toString", "__proto__" are not choices
		if (Object.hasOwn(aliases, s)) return aliases[s];
		return this.fail(name, `"${s}" is not a valid choice.`);
	}

	/** Naira amount (number or string, up to 2 decimals) → kobo. */
	money(name: string): number | undefined {
		const v = this.present(name, true);
		if (v === undefined) return undefined;
		const k = parseNaira(v);
		return k ?? this.fail(name, 'A valid number is required.');
	}
}

const TRUE = new Set<unknown>([true, 'true', 'True', 'TRUE', 'yes', 'on', '1', 1]);
const FALSE = new Set<unknown>([false, 'false', 'False', 'FALSE', 'no', 'off', '0', 0]);
