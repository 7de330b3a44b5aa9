/**
 * The product registry (client/products/registry.ts) is the one list of products. What cannot be derived
 * from it at run time (package.json's node list, the icon script, the node folders, the client's typed
 * areas) is checked against it here: adding a product folder without its node, icon or client area fails.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { VtuClient } from '../../client/core';
import { PRODUCT_LIST, PRODUCT_SPECS, productModule } from '../../client/products/registry';
import { ACCOUNT_NODES } from '../../nodes/shared/accountNodes';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const folderOf = (node: string) => node[0].toUpperCase() + node.slice(1);

/** Every node of the package, loaded from package.json's list (no list of our own to keep in step). */
function packageNodes(): INodeTypeDescription[] {
	return (pkg.n8n.nodes as string[]).map((dist) => {
		const src = join(root, dist.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
		const Node = jest.requireActual<Record<string, new () => INodeType>>(src)[dist.split('/').at(-1)!.split('.')[0]];
		return new Node().description;
	});
}

describe('the product registry drives the package', () => {
	const nodes = packageNodes();
	const byName = new Map(nodes.map((d) => [d.name, d]));
	const productNodes = [...new Set(PRODUCT_SPECS.map((s) => s.node))];

	test('names are unique and each folder registers the product it is named by', () => {
		const names = PRODUCT_SPECS.map((s) => s.product);
		expect(new Set(names).size).toBe(names.length);
		for (const d of PRODUCT_LIST) expect(d.module.product).toBe(d.spec.product);
		for (const d of PRODUCT_LIST) expect(d.module.path).toBe(d.spec.path);
		expect(() => productModule('__proto__')).toThrow(/unknown/);
	});

	test("package.json lists every product's node, and nothing else but the account nodes", () => {
		const account = [...Object.values(ACCOUNT_NODES).map((n) => n.node), 'vtuTransactionTrigger'];
		expect([...byName.keys()].sort()).toEqual([...new Set([...productNodes, ...account])].sort());
		for (const node of productNodes) {
			const dir = folderOf(node);
			expect(pkg.n8n.nodes).toContain(`dist/nodes/${dir}/${dir}.node.js`);
		}
	});

	test("each product's node offers every operation of the product's table row", () => {
		for (const spec of PRODUCT_SPECS) {
			const d = byName.get(spec.node)!;
			const op = d.properties.find((p) => p.name === 'operation')!;
			const values = (op.options as Array<{ value: string }>).map((o) => o.value);
			for (const o of spec.operations)
				expect([spec.product, values]).toEqual([spec.product, expect.arrayContaining([o.value])]);
		}
	});

	test('the icon script draws every node, and its icons are in the node folder', () => {
		const script = readFileSync(join(root, 'scripts', 'make-icons.js'), 'utf8');
		for (const d of nodes) {
			const dir = folderOf(d.name);
			expect([d.name, script.includes(`['${dir}', '${d.name}', `)]).toEqual([d.name, true]);
			for (const f of [`${d.name}.svg`, `${d.name}.dark.svg`])
				expect([f, existsSync(join(root, 'nodes', dir, f))]).toEqual([f, true]);
		}
	});

	test('the Wallet prices every product; the Transaction node looks up every product with records', () => {
		const values = (node: string) => {
			const field = byName.get(node)!.properties.find((p) => p.name === 'product')!;
			return (field.options as Array<{ value: string }>).map((o) => o.value).sort();
		};
		const all = PRODUCT_SPECS.map((s) => s.product);
		expect(values('vtuWallet')).toEqual([...all, 'all'].sort());
		expect(values('vtuTransaction')).toEqual(
			PRODUCT_SPECS.filter((s) => !('batch' in s))
				.map((s) => s.product)
				.sort(),
		);
	});

	test('the client has an area per product that buys it (send for a batch product)', () => {
		const client = new VtuClient({
			baseUrl: 'http://127.0.0.1:9',
			token: 'registry-token-0000',
			transport: async () => ({ status: 500, headers: {}, body: '' }),
			sleep: async () => undefined,
		}) as unknown as Record<string, Record<string, unknown>>;
		for (const spec of PRODUCT_SPECS) {
			const area = client[spec.namespace];
			const buys = 'batch' in spec ? area?.send : area?.buy;
			expect([spec.namespace, typeof buys]).toEqual([spec.namespace, 'function']);
		}
	});
});
