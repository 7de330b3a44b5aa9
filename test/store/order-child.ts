/**
 * One storefront instance in its own process: places one order and prints its state. The crash tests kill
 * it (SIGKILL) while its purchase waits for the vendor. The API token comes in VTU_API_TOKEN, never argv.
 */
import { VtuClient } from '../../client';
import { openStoreDb } from '../../store/db';
import { Books } from '../../store/ledger';
import { Storefront } from '../../store/orders';

async function main() {
	const [target, baseUrl, customer, orderId, request] = process.argv.slice(2);
	const o = await openStoreDb(/^postgres/.test(target) ? { databaseUrl: target } : { sqlitePath: target });
	const client = new VtuClient({ baseUrl, token: process.env.VTU_API_TOKEN ?? '', timeoutMs: 120_000 });
	const store = new Storefront({ books: new Books(o.db), client, pricing: { markupPercent: 5 }, customerRef: true });
	const out = await store.placeOrder(customer, orderId, JSON.parse(request));
	await o.close();
	process.stdout.write(`${out.state}\n`);
}

main().catch((e) => {
	process.stderr.write(`${(e as Error).message}\n`);
	process.exit(1);
});
