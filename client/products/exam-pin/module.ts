import { money } from '../../money';
import { recordParser, requireQuantity, resolveChoice, text, type ProductModule, pinOrderMoney } from '../common';
import { productModule } from '../define';
import { EXAM_PIN_SPEC } from './spec';

/** What a caller passes to buy or quote this product (`product` names it). */
export interface ExamPinPurchase {
	product: 'exam_pin';
	exam: 'WAEC' | 'NECO' | 'NABTEB' | string;
	quantity: number;
}

const { fields: F, limits: L, path: PATH } = EXAM_PIN_SPEC;

/** pins: list of strings | list of {pin, serial} | one string separated by commas/newlines. */
export function parsePins(v: unknown): string[] {
	if (Array.isArray(v)) {
		return v
			.map((x) =>
				typeof x === 'string' || typeof x === 'number'
					? String(x)
					: x && typeof x === 'object'
						? text((x as Record<string, unknown>).pin ?? (x as Record<string, unknown>).Pin ?? JSON.stringify(x))
						: '',
			)
			.map((s) => s.trim())
			.filter(Boolean);
	}
	if (typeof v === 'string') {
		const s = v.trim();
		if (s.startsWith('[')) {
			try {
				return parsePins(JSON.parse(s));
			} catch {
				/* fall through */
			}
		}
		return s
			.split(/[,\n;]+|\s{2,}/)
			.map((x) => x.trim())
			.filter(Boolean);
	}
	return [];
}

export const examProduct: ProductModule<ExamPinPurchase> = productModule(EXAM_PIN_SPEC, {
	hasDetail: true,
	prepare(req, idx) {
		const { exam: name, price } = resolveChoice(idx.exams, req.exam, 'exam', 'an exam');
		const exam = name.toUpperCase();
		const quantity = requireQuantity(req.quantity, 'quantity', L.quantity.min, L.quantity.max);
		const body = { [F.exam.wire]: exam, [F.quantity.wire]: quantity };
		return {
			product: 'exam_pin',
			path: PATH,
			body,
			quote: {
				product: 'exam_pin',
				recipient: exam,
				amount: money(price.kobo * quantity),
				description: `${quantity} × ${exam} result checker PIN${quantity > 1 ? 's' : ''}`,
				request: body,
			},
			match: {
				recipient: exam,
				search: null,
				test: (r) => Number(r.details.quantity) === quantity,
			},
		};
	},
	parse: recordParser('exam_pin', (o) => {
		const pins = parsePins(o.pins ?? o.pin);
		return {
			...pinOrderMoney(o),
			recipient: text(o.exam_name).toUpperCase() || null,
			details: {
				exam: text(o.exam_name).toUpperCase(),
				quantity: Number(o.quantity) || 0,
				pins,
				...(o.data !== undefined ? { data: o.data } : {}),
			},
		};
	}),
});
