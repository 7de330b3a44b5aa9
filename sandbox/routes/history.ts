/**
 * Lists (15 per page, newest first, DRF page-number pagination) and detail GETs.
 * `?search=` filters in the seed dialect and is ignored by the family (LegitData build).
 */
import type { FastifyInstance } from 'fastify';
import { buildOf, COUPON_PATHS, couponPath } from '../builds';
import { apiRoute, type Ctx, html500, notFoundEmpty, notFoundPage, type Out, type Runtime } from '../http';
import { renderSmsHistory, renderTxn } from '../render';
import type { Dialect, Product, Txn } from '../state';

const PAGE_SIZE = 15;
type Render = (t: Txn, dialect: Dialect) => Record<string, unknown>;

function matches(t: Txn, s: string): boolean {
	if (String(t.id) === s || t.ident === s || t.recipient === s) return true;
	// SMS batches: any recipient, in either local or 234 form.
	return !!t.d.to && t.d.to.includes(s.startsWith('0') ? `234${s.slice(1)}` : s);
}

function list(c: Ctx, product: Product, render: Render, path: string): Out {
	const items = c.user.txns[product];
	const search = c.query.search;
	if (c.dialect === 'seed' && search) {
		const found: unknown[] = [];
		for (let i = items.length - 1; i >= 0; i--) if (matches(items[i], search)) found.push(render(items[i], c.dialect));
		return { status: 200, body: found };
	}
	return drfPage(c, items, (t) => render(t, c.dialect), path);
}

/**
 * DRF page-number pagination over a list kept oldest first: 15 a page, newest first, an out-of-range page →
 * 404 "Invalid page.". `query` (e.g. "search=x") is kept in the next/previous links, page 1 is linked without
 * `page=`, as DRF does.
 */
export function drfPage<T>(
	c: Pick<Ctx, 'query' | 'req'>,
	items: readonly T[],
	render: (t: T) => unknown,
	path: string,
	query = '',
): Out {
	const page = c.query.page === undefined ? 1 : /^\d+$/.test(c.query.page) ? Number(c.query.page) : 0;
	const count = items.length;
	const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
	if (page < 1 || page > pages) return { status: 404, body: { detail: 'Invalid page.' } };
	const results: unknown[] = [];
	const top = count - 1 - (page - 1) * PAGE_SIZE;
	for (let i = top; i >= 0 && i > top - PAGE_SIZE; i--) results.push(render(items[i]));
	const base = `http://${c.req.headers.host ?? '127.0.0.1'}${path}`;
	const link = (p: number) => {
		const q = [query, p > 1 ? `page=${p}` : ''].filter(Boolean).join('&');
		return q ? `${base}?${q}` : base;
	};
	return {
		status: 200,
		body: { count, next: page < pages ? link(page + 1) : null, previous: page > 1 ? link(page - 1) : null, results },
	};
}

/** One build answers the SMS history as every row in one list, newest first, unpaginated. */
function bareList(c: Ctx, product: Product, render: Render): Out {
	const items = c.user.txns[product];
	const rows: unknown[] = [];
	for (let i = items.length - 1; i >= 0; i--) rows.push(render(items[i], c.dialect));
	return { status: 200, body: rows };
}

function detail(c: Ctx, product: Product): Out {
	const id = Number((c.req.params as { id: string }).id);
	const t = c.state.find(product, id);
	if (!t || t.username !== c.user.username) return notFoundEmpty();
	return { status: 200, body: renderTxn(t, c.dialect) };
}

/** path segment → product; `detail` false where the family has no detail route. */
const SERVICES: Array<[string, Product, boolean]> = [
	['data', 'data', true],
	['topup', 'airtime', true],
	['cablesub', 'cable', true],
	['billpayment', 'electricity', true],
	['epin', 'exam_pin', true],
	['rechargepin', 'recharge_card', false],
];

export function historyRoutes(app: FastifyInstance, rt: Runtime): void {
	for (const [seg, product, hasDetail] of SERVICES) {
		const path = `/api/${seg}/`;
		apiRoute(app, rt, 'GET', path, (c) => list(c, product, renderTxn, path));
		if (!hasDetail) continue;
		// Django's <int:id>: anything else is an unknown URL (404 page), hence the constraint.
		for (const url of [`/api/${seg}/:id(^\\d+$)`, `/api/${seg}/:id(^\\d+$)/`])
			apiRoute(app, rt, 'GET', url, (c) => detail(c, product));
	}
	for (const path of COUPON_PATHS)
		apiRoute(app, rt, 'GET', path, (c) =>
			path === couponPath(c.state) ? list(c, 'data_coupon', renderTxn, path) : notFoundPage(),
		);
	apiRoute(app, rt, 'GET', '/api/sendsms/', (c) =>
		buildOf(c.state)?.smsHistory === 'list'
			? bareList(c, 'sms', renderSmsHistory)
			: list(c, 'sms', renderSmsHistory, '/api/sendsms/'),
	);
	// /api/sms/: fine in the seed; broken in the family's legacy code (500).
	apiRoute(app, rt, 'GET', '/api/sms/', (c) =>
		c.dialect === 'seed' ? list(c, 'sms', renderSmsHistory, '/api/sms/') : html500(),
	);
}
