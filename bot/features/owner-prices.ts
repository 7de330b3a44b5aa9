/**
 * Prices in the chat. `/prices`: the customer's price list at a glance (their tier's prices: the seller's
 * rules over the vendor's cost). The owner: `/setprice <product> [<plan type> | plan <id>] <markup> [tier]`
 * sets a markup (`5%`, `2.5%` or naira `₦20`) and is shown the new prices and margins against the vendor's
 * cost; `/setprice … off` removes the rule; `/tier <telegram id> regular|reseller` sets a customer's tier.
 */
import { VtuError } from '../../client/errors';
import { parseMarkup, parseTier, PriceTable, type Markup, type Tier } from '../../store/prices';
import type { MyContext, Services } from '../context';
import { flowOpen } from '../flow/confirm';
import { menuButton } from '../flow/keyboards';
import { failText } from '../flow/pickers';
import { t } from '../i18n';
import { refusalWords } from '../refusals';
import { naira } from '../orders';
import { catalogueItems, itemsIn, PRODUCT_WORDS, typesOf, type PricedItem } from '../storefront/price-list';
import type { CommandHandler, Feature } from './registry';

/** Telegram's limit is 4096 characters a message: the list is cut into messages under it. */
const CHUNK = 3500;

export function chunks(lines: string[], max = CHUNK): string[] {
	const out: string[] = [];
	let cur = '';
	for (const l of lines) {
		if (cur && cur.length + l.length + 1 > max) {
			out.push(cur);
			cur = '';
		}
		cur = cur ? `${cur}\n${l}` : l;
	}
	if (cur) out.push(cur);
	return out;
}

/** The price list of a tier: a section per product (and network), one line per item. */
export function priceListLines(items: PricedItem[], table: PriceTable): string[] {
	const lines: string[] = [];
	let section = '';
	for (const i of items) {
		if (i.section !== section) {
			if (lines.length) lines.push('');
			lines.push((section = i.section));
		}
		lines.push(t('prices-line', { name: i.name, price: naira(table.price(i.key, i.cost).price) }));
	}
	return lines;
}

/** The price list of the customer's tier (an owner may ask for a tier: `/prices reseller`). */
async function showPrices(s: Services, ctx: MyContext, arg = ''): Promise<unknown> {
	const side = s.storefront!;
	const asked = parseTier(arg);
	const markup = flowOpen(s, ctx) ? {} : { reply_markup: menuButton() };
	const tier = asked && s.access.isAdmin(ctx.from?.id) ? asked : await side.prices.tierOf(String(ctx.from!.id));
	try {
		const items = catalogueItems(await side.o.client.catalog.get());
		const table = await side.prices.table(tier);
		const parts = chunks([
			t(tier === 'regular' ? 'prices-head' : 'prices-head-tier', { tier }),
			'',
			...priceListLines(items, table),
		]);
		for (const [i, part] of parts.entries()) await ctx.reply(part, i === parts.length - 1 ? markup : {});
	} catch (e) {
		await ctx.reply(failText(s, t('price-list-failed'), e), markup);
	}
	return undefined;
}

type SetPrice = { product: string; scope: string; tier: Tier; markup: Markup | 'off' };

/** `<product> [<plan type words> | plan <id>] <markup|off> [regular|reseller]` */
export function parseSetPrice(text: string): SetPrice | null {
	const words = text.trim().split(/\s+/).filter(Boolean);
	const tier = parseTier(words[words.length - 1] ?? '');
	if (tier) words.pop();
	const last = words.pop();
	const product = PRODUCT_WORDS[(words.shift() ?? '').toLowerCase()];
	if (!last || !product) return null;
	const markup = /^(off|default|remove)$/i.test(last) ? 'off' : parseMarkup(last);
	if (!markup) return null;
	let scope = '';
	if (words.length === 2 && words[0].toLowerCase() === 'plan' && /^\d{1,9}$/.test(words[1])) scope = `plan:${words[1]}`;
	else if (words.length) scope = `type:${words.join(' ').toUpperCase()}`;
	if (product === '*' && scope) return null;
	return { product, scope, tier: tier ?? 'regular', markup };
}

function ruleName(p: SetPrice): string {
	const product = p.product === '*' ? t('setprice-every-product') : p.product;
	const where = p.scope.startsWith('plan:') ? t('setprice-rule-plan', { id: p.scope.slice(5) }) : p.scope.slice(5);
	return [product, where, `(${p.tier})`].filter(Boolean).join(' ');
}

/** "5% + ₦20"; an SMS rule's naira are per page to each number (store/prices.ts). */
function markupText(m: Markup, product: string): string {
	const fixed = m.fixedKobo ? naira(m.fixedKobo) : '';
	const each = fixed && product === 'sms' ? t('setprice-per-page', { amount: fixed }) : fixed;
	return [m.percent ? `${m.percent}%` : '', each].filter(Boolean).join(' + ') || '0';
}

/** The margins of (up to 8 of) the items a rule covers, at the prices now in force. */
function marginLines(items: PricedItem[], table: PriceTable): string[] {
	const lines = items.slice(0, 8).map((i) => {
		const p = table.price(i.key, i.cost);
		return t('setprice-margin', { name: i.name, cost: naira(i.cost), price: naira(p.price), margin: naira(p.margin) });
	});
	if (items.length > 8) lines.push(t('setprice-more', { count: items.length - 8 }));
	return lines;
}

function setPriceCommand(s: Services): CommandHandler {
	return async (ctx) => {
		if (!s.access.isAdmin(ctx.from?.id)) return ctx.reply(t('admin-only'));
		const p = parseSetPrice(ctx.match);
		if (!p) return ctx.reply(t('setprice-usage'));
		const side = s.storefront!;
		const catalog = await side.o.client.catalog.get();
		const items = catalogueItems(catalog);
		const covered = itemsIn(catalog, items, p.product, p.scope);
		if (p.scope && !covered.length) {
			const types = typesOf(catalog, items, p.product);
			return ctx.reply(t('setprice-unknown', { what: p.scope.slice(5), types: types.join(', ') || '–' }));
		}
		if (p.markup === 'off') {
			const gone = await side.prices.remove(p.product, p.scope, p.tier);
			if (!gone) return ctx.reply(t('setprice-none', { rule: ruleName(p) }));
		} else {
			try {
				await side.prices.set({ product: p.product, scope: p.scope, tier: p.tier, ...p.markup }, String(ctx.from!.id));
			} catch (e) {
				if (e instanceof VtuError && e.code === 'invalid_input') {
					const problem = refusalWords(e, t('input-refused'));
					return ctx.reply(t('input-problem', { problem, hint: t('setprice-usage') }));
				}
				throw e;
			}
		}
		s.logger.info('price rule changed', { product: p.product, scope: p.scope, tier: p.tier, by: ctx.from!.id });
		const table = await side.prices.table(p.tier);
		const head =
			p.markup === 'off'
				? t('setprice-removed', { rule: ruleName(p) })
				: t('setprice-set', { rule: ruleName(p), markup: markupText(p.markup, p.product) });
		return ctx.reply([head, ...marginLines(covered, table)].join('\n'));
	};
}

function tierCommand(s: Services): CommandHandler {
	return async (ctx) => {
		if (!s.access.isAdmin(ctx.from?.id)) return ctx.reply(t('admin-only'));
		const m = /^\s*(\d{1,15})\s+(\S+)\s*$/.exec(ctx.match);
		const tier = m ? parseTier(m[2]) : null;
		if (!m || !tier) return ctx.reply(t('tier-usage'));
		await s.storefront!.books.createCustomer(m[1]);
		await s.storefront!.prices.setTier(m[1], tier);
		s.logger.info('customer tier set', { customer: m[1], tier, by: ctx.from!.id });
		return ctx.reply(t('tier-set', { customer: m[1], tier }));
	};
}

export const ownerPrices: Feature = {
	name: 'pricing',
	commands: [
		{ name: 'prices', description: 'cmd-prices', help: 'help-prices', keepsFlow: true },
		{ name: 'setprice', description: 'cmd-setprice', admin: true },
		{ name: 'tier', description: 'cmd-tier', admin: true },
	],
	menu: { label: 'menu-prices', place: 'prices', row: 2 },
	build: (s) => ({
		places: { prices: (ctx) => showPrices(s, ctx) },
		commands: {
			prices: (ctx) => showPrices(s, ctx, ctx.match),
			setprice: setPriceCommand(s),
			tier: tierCommand(s),
		},
	}),
};
