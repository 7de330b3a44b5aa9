/**
 * Wait for a condition, not for time: poll `check` (a read of the sandbox, a database or a fake) until it
 * holds. The bound only fails the test, it never paces it, so a test passes with the cores busy.
 */
export async function until(
	check: () => Promise<boolean> | boolean,
	what: string,
	timeoutMs = 30_000,
	everyMs = 20,
): Promise<void> {
	for (const end = Date.now() + timeoutMs; !(await check()); ) {
		if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, everyMs));
	}
}
