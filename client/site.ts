/**
 * What the client has learned about each site (base URL), shared by every client of the process like the
 * catalogue cache: which of several equivalent routes the site serves (validation, catalogue), and its SMS
 * tariff once a batch has shown it. Builds of the family differ (docs/real-sites.md §3.2, §4.7, §8); asking
 * the route that answered last first saves a 404 round trip per read on every later call.
 */
import { VtuError } from './errors';
import type { HttpCore } from './http';

const facts = new Map<string, Map<string, unknown>>();

export function siteFact<T>(baseUrl: string, key: string): T | undefined {
	return facts.get(baseUrl)?.get(key) as T | undefined;
}

export function learnSiteFact(baseUrl: string, key: string, value: unknown): void {
	let m = facts.get(baseUrl);
	if (!m) facts.set(baseUrl, (m = new Map()));
	m.set(key, value);
}

/** Forget everything learned about every site (tests; what a process restart does). */
export function forgetSites(): void {
	facts.clear();
}

/** A 404 (or 405) means "this build has no such route": try the next one. */
export function isMissingRoute(e: unknown): boolean {
	return e instanceof VtuError && (e.code === 'not_found' || (e.code === 'bad_response' && e.httpStatus === 405));
}

/**
 * Read through the first of `routes` the site serves, the one that answered last time first. The route that
 * answers is remembered under `fact`. Every route missing: the last route's error is thrown.
 */
export async function viaKnownRoute<T>(
	http: HttpCore,
	fact: string,
	routes: readonly string[],
	read: (route: string) => Promise<T>,
): Promise<T> {
	const known = siteFact<string>(http.baseUrl, fact);
	const order = known && routes.includes(known) ? [known, ...routes.filter((r) => r !== known)] : routes;
	for (let i = 0; ; i++) {
		try {
			const body = await read(order[i]);
			learnSiteFact(http.baseUrl, fact, order[i]);
			return body;
		} catch (e) {
			if (!isMissingRoute(e) || i === order.length - 1) throw e;
		}
	}
}
