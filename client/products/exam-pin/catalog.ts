/** The exam prices section of the catalogue: the seed's /api/get/exam/ or the `Exam` of /api/user/. */
import { money, tryParseKobo } from '../../money';
import { CatalogShapeError } from '../../schemas/catalog';
import type { ExamPrice } from '../../types';
import { isRecord } from '../../util';
import { catalogSection } from '../define';

export const examCatalog = catalogSection({
	key: 'exams',
	name: 'exam',
	routes: ['/api/get/exam/'],
	remember: false,
	legacy: (root) => root.Exam,
	parse: (body) => parseExams(body),
	fallback: [],
});

/** {WAEC:{amount}} | {WAEC: 900} | [{exam_name, amount}] | {exams:[...]} */
export function parseExams(body: unknown): ExamPrice[] {
	if (isRecord(body) && Array.isArray(body.exams)) body = body.exams;
	if (isRecord(body) && isRecord(body.Exam)) body = body.Exam;
	const out: ExamPrice[] = [];
	if (Array.isArray(body)) {
		for (const r of body) {
			if (!isRecord(r)) continue;
			const name = String(r.exam_name ?? r.exam ?? r.name ?? '')
				.trim()
				.toUpperCase();
			const k = tryParseKobo(r.amount ?? r.price);
			if (name && k !== null) out.push({ exam: name, price: money(k) });
		}
	} else if (isRecord(body)) {
		for (const [key, val] of Object.entries(body)) {
			const k = tryParseKobo(isRecord(val) ? (val.amount ?? val.price) : val);
			if (k !== null) out.push({ exam: key.trim().toUpperCase(), price: money(k) });
		}
	} else throw new CatalogShapeError('exam prices have an unknown shape');
	return out;
}
