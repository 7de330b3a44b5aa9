/**
 * Builder's words (issue 25): the client's messages are shared with the bot and written for developers
 * (method and option names); every one a node can show passes through forBuilder, which must leave no code
 * name behind. This reads every string literal of client/ with TypeScript's parser, so a new message that
 * names code fails here until it has builder's words.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

import { forBuilder } from '../../nodes/shared/errors';
import { countText } from '../../nodes/shared/format';
import { rowList, rowsWord } from '../../nodes/shared/stopReport';

const CODE_NAME = /client\.[a-z]\w*|reconcile\.[a-z]\w*|\b[a-z]+[A-Z]\w*: (true|false)|set [a-z]\w*:/;

function tsFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
	);
}

/** Every string literal and template part of a file that names code. */
function codeNamingLiterals(file: string): string[] {
	const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const visit = (n: ts.Node): void => {
		if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) {
			if (CODE_NAME.test(n.text)) found.push(n.text);
			return;
		}
		if (ts.isTemplateExpression(n)) {
			// the whole message, each placeholder filled with a sample value
			const text = n.head.text + n.templateSpans.map((span) => `MTN${span.literal.text}`).join('');
			if (CODE_NAME.test(text)) found.push(text);
			for (const span of n.templateSpans) visit(span.expression);
			return;
		}
		ts.forEachChild(n, visit);
	};
	visit(src);
	return found;
}

describe("builder's words", () => {
	const root = join(__dirname, '..', '..', 'client');
	const literals = tsFiles(root).flatMap((f) => codeNamingLiterals(f).map((text) => ({ file: f, text })));

	test('the client has messages naming code (the guard reads them)', () => {
		// the plan-list, ported-number, shared-account and reconcile messages at least
		expect(literals.length).toBeGreaterThanOrEqual(8);
	});

	test.each([...new Set(literals.map((l) => l.text))])('a node says %j without code names', (text) => {
		expect(forBuilder(text)).not.toMatch(CODE_NAME);
	});

	test('whole messages read as a builder would say them', () => {
		expect(forBuilder(`plan 9 is not an MTN data plan. Pick one from client.catalog.dataPlans('MTN').`)).toBe(
			"Plan 9 is not an MTN data plan. Choose one from the Plan list (it shows the chosen network's plans).",
		);
		expect(
			forBuilder(
				'Do not buy it again before it is resolved: client.reconcile(request, { sentAt }) answers it, ' +
					'or check the transaction history.',
			),
		).toBe(
			"Do not buy it again before it is resolved: VTU Transaction's Resolve Unclear Purchase answers " +
				'it, or check the transaction history.',
		);
		expect(forBuilder('Nothing to send: none of the 1 recipients; 1 rows, 21 rows, 1,001 rows, 1 batches.')).toBe(
			'Nothing to send: none of the 1 recipient; 1 row, 21 rows, 1,001 rows, 1 batch.',
		);
		expect(forBuilder('Rate limited by the server (HTTP 429). Slow down or lower the concurrency.')).toBe(
			"Rate limited by the server (HTTP 429). Slow down or lower the node's Concurrency option.",
		);
	});

	test('rows counted as n8n shows them: 1 row, 2 rows, row 4, rows 4, 5', () => {
		expect([rowsWord(1), rowsWord(2), rowList([4]), rowList([4, 5])]).toEqual([
			'1 row',
			'2 rows',
			'row 4',
			'rows 4, 5',
		]);
		expect([countText(1, 'batch', 'batches'), countText(20000, 'number')]).toEqual(['1 batch', '20,000 numbers']);
	});
});
