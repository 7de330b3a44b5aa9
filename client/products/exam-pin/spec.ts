/** The exam_pin product's table row: its node, operations, fields (with their wire names) and limits. */
import type { ProductSpec } from '../table';

export const EXAM_PIN_SPEC = {
	product: 'exam_pin' as const,
	namespace: 'examPins',
	title: 'Exam Pin',
	noun: 'exam pin',
	node: 'vtuExamPin',
	summary: 'Buy WAEC, NECO and NABTEB result checker pins from a VTU merchant API',
	path: '/api/epin/',
	catalogue: 'exams',
	aiTool: true,
	operations: [
		{
			name: 'Buy',
			value: 'buy',
			description: 'Order result checker pins (debits the wallet)',
			action: 'Buy exam pins',
		},
		{
			name: 'Get Order',
			value: 'getOrder',
			description: 'Read one exam pin order with its pins',
			action: 'Get an exam pin order',
		},
	],
	spend: 'buy',
	fields: { exam: { label: 'Exam', wire: 'exam_name' }, quantity: { label: 'Quantity', wire: 'quantity' } },
	limits: { quantity: { min: 1, max: 5 } },
} satisfies ProductSpec;
