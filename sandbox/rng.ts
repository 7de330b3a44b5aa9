/** Each byte as two lowercase hex digits. */
const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Seeded PRNG (mulberry32): same seed + same request order → same idents, tokens, fault rolls. */
export class Rng {
	private s: number;
	constructor(seed: number) {
		this.s = seed >>> 0;
	}
	/** Uniform 32-bit unsigned integer. */
	u32(): number {
		let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return (t ^ (t >>> 14)) >>> 0;
	}
	/** Uniform float in [0, 1). */
	float(): number {
		return this.u32() / 4294967296;
	}
	/** `n` lowercase hex characters. */
	hex(n: number): string {
		let out = '';
		while (out.length < n) {
			// = u32().toString(16).padStart(8, '0'), by byte from a table (every record's ident comes from here)
			const x = this.u32();
			out += HEX2[x >>> 24] + HEX2[(x >>> 16) & 255] + HEX2[(x >>> 8) & 255] + HEX2[x & 255];
		}
		return out.slice(0, n);
	}
	/** `n` decimal digits (may start with 0). */
	digits(n: number): string {
		let out = '';
		while (out.length < n) out += String(this.u32() % 1000000000).padStart(9, '0');
		return out.slice(0, n);
	}
}
