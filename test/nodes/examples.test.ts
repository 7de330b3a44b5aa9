/**
 * What makes examples/*.json run as imported, checked on the files (test/n8n/examples.test.js runs them in
 * real n8n): SMS texts in plain GSM characters, the budget in naira in one place, files under n8n's
 * ~/.n8n-files, and the trigger's manual-run sample data never acted on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unicodeChars } from '../../client/core';

type Node = { name: string; type: string; parameters: Record<string, unknown> };
type Workflow = { name: string; nodes: Node[]; connections: Record<string, Record<string, unknown[][]>> };

const DIR = join(__dirname, '../../examples');
const EXAMPLES: [string, Workflow][] = readdirSync(DIR)
	.filter((f) => f.endsWith('.json'))
	.sort()
	.map((f) => [f, JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Workflow]);

const options = (n: Node) => (n.parameters.options ?? {}) as Record<string, unknown>;
/** The text a template always sends: the expressions' parts are the data's, not the example's. */
const literal = (template: string) => template.replace(/^=/, '').replace(/\{\{[\s\S]*?\}\}/g, '');

test('there are examples', () => {
	expect(EXAMPLES.length).toBeGreaterThanOrEqual(8);
});

describe.each(EXAMPLES)('%s', (_file, wf) => {
	test('SMS texts are plain GSM characters (no Unicode warning of our own)', () => {
		for (const n of wf.nodes.filter((x) => /\.vtuBulkSms(Tool)?$/.test(x.type))) {
			expect([n.name, unicodeChars(literal(String(n.parameters.message ?? '')))]).toEqual([n.name, []]);
		}
	});

	test('the budget is set once, in naira: one Spend Cap where a dry run gates, no kobo compared in an IF', () => {
		const capped = wf.nodes.filter((n) => options(n).spendCap !== undefined);
		if (wf.nodes.some((n) => options(n).dryRun === true)) {
			expect(capped.map((n) => options(n).dryRun)).toEqual([true]);
		}
		for (const n of wf.nodes.filter((x) => x.type === 'n8n-nodes-base.if')) {
			expect([n.name, JSON.stringify(n.parameters)]).not.toEqual([n.name, expect.stringMatching(/Kobo/)]);
		}
	});

	test("files are read and written under ~/.n8n-files (n8n 2.x's default file rule)", () => {
		for (const n of wf.nodes.filter((x) => x.type === 'n8n-nodes-base.readWriteFile')) {
			const where = String(n.parameters.fileSelector ?? n.parameters.fileName);
			expect([n.name, where]).toEqual([n.name, expect.stringMatching(/\.n8n-files\/|binary\.data\.directory/)]);
		}
	});

	test("what a VTU trigger emits passes an IF on the manual run's sample mark before anything acts on it", () => {
		for (const t of wf.nodes.filter((x) => x.type === 'n8n-nodes-vtu.vtuTransactionTrigger')) {
			const next = (wf.connections[t.name]?.main ?? []).flat() as { node: string }[];
			expect(next.length).toBeGreaterThan(0);
			for (const c of next) {
				const n = wf.nodes.find((x) => x.name === c.node)!;
				expect([n.type, JSON.stringify(n.parameters)]).toEqual([
					'n8n-nodes-base.if',
					expect.stringContaining('$json.sample'),
				]);
			}
		}
	});
});
