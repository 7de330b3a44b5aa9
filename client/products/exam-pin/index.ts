/** Result checker pins: POST /api/epin/ with the exam's name and a quantity. */
import { defineProduct } from '../define';
import { examCatalog } from './catalog';
import { examProduct } from './module';
import { EXAM_PIN_SPEC } from './spec';

export const examPin = defineProduct({
	spec: EXAM_PIN_SPEC,
	module: examProduct,
	catalog: examCatalog,
	prices: (c) => c.exams.map((e) => ({ product: 'exam_pin', name: e.exam, price: e.price.naira })),
});
