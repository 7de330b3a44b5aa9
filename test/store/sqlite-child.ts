/** One "bot instance" in its own process: holds orders on a shared SQLite file until the wallet says no. */
import { openStoreDb } from '../../store/db';
import { Books } from '../../store/ledger';

async function main() {
	const [file, tag, amount] = process.argv.slice(2);
	const o = await openStoreDb({ sqlitePath: file });
	const books = new Books(o.db);
	let held = 0;
	for (let i = 0; ; i++) {
		try {
			await books.hold('u1', `${tag}-${i}`, Number(amount));
			held++;
		} catch (e) {
			if ((e as { code?: string }).code !== 'insufficient_balance') throw e;
			break;
		}
	}
	await o.close();
	process.stdout.write(`${held}\n`);
}

main().catch((e) => {
	process.stderr.write(`${(e as Error).message}\n`);
	process.exit(1);
});
