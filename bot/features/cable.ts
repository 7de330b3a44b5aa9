/** /cable: provider → package → IUC (checked with the site, the customer's name shown) → checks → confirm. */
import type { Services } from '../context';
import { choiceSteps, customerPricer, type Item, type Pricer } from '../flow/choices';
import type { AccountCheck, Holder } from '../flow/validate';
import { t } from '../i18n';
import { naira } from '../orders';
import { PRODUCT_TABLE, type BotPurchaseRequest, type CableProvider } from '../vtu';
import { endingSteps, productFeature, sentTo, type Purchase, type Questions, type Redo } from './product';

type CableRequest = Extract<BotPurchaseRequest, { product: 'cable' }>;

interface Provider {
	id: number;
	name: string;
	packages: { id: number; name: string; kobo: number }[];
}

const IUC = PRODUCT_TABLE.cable.limits.iucDigits;

/** Providers with their packages: ids, names and prices only (kept in the conversation's state). */
const providersOf = (list: CableProvider[], price: Pricer): Provider[] =>
	list
		.filter((p) => p.packages.length > 0)
		.map((p) => ({
			id: p.id,
			name: String(p.name),
			packages: p.packages.map((k) => ({
				id: k.id,
				name: k.name,
				kobo: price({ product: 'cable', type: String(p.name), plan: String(k.id) }, k.price.kobo),
			})),
		}));

const iucCheck = (s: Services, provider: { id: number; name: string }): AccountCheck => ({
	field: 'iuc',
	what: t('cable-iuc-what'),
	digits: IUC,
	hint: t('cable-iuc-prompt', { provider: provider.name, min: IUC.min, max: IUC.max }),
	validate: (iuc) => s.client.cable.validate({ provider: provider.id, iuc }),
	unknown: (iuc) => t('cable-iuc-unknown', { provider: provider.name, iuc }),
});

/** The package to the IUC checked with the site (its holder named in the confirm question). */
function cablePurchase(base: Omit<CableRequest, 'iuc'>, description: string, holder: Holder): Purchase {
	const { number: iuc, name } = holder;
	return { request: { ...base, iuc }, meta: sentTo(description, t('cable-target', { iuc, name }), iuc) };
}

function cableQuestions(s: Services): Questions {
	const { pickOne, pickNext } = choiceSteps(s);
	const { loadList, askHolder } = endingSteps(s, 'cable');

	return async (conversation, ctx) => {
		const providers = await loadList(conversation, ctx, 'cable-none', async () =>
			providersOf(await s.client.catalog.cable(), await customerPricer(s, ctx.from?.id)),
		);
		if (!providers) return;
		const items: Item[] = providers.map((p) => ({ n: p.id, text: p.name }));
		const first = await pickOne(conversation, ctx, t('cable-choose-provider'), items, 3);
		const provider = providers.find((p) => p.id === first.item.n)!;
		const packages: Item[] = provider.packages.map((k) => ({ n: k.id, text: `${k.name} ${naira(k.kobo)}` }));
		const second = await pickNext(
			conversation,
			first.c,
			t('cable-choose-package', { provider: provider.name }),
			packages,
		);
		const pkg = provider.packages.find((k) => k.id === second.item.n)!;
		const holder = await askHolder(conversation, ctx, second.c, iucCheck(s, provider), (prompt) =>
			t('cable-package-chosen', { package: second.item.text, prompt }),
		);
		if (!holder) return;
		const description = t('cable-description', { provider: provider.name, package: pkg.name });
		return cablePurchase({ product: 'cable', provider: provider.id, package: pkg.id }, description, holder);
	};
}

/** "Try again" after the vendor refused the IUC at the purchase: the order's provider and package, a new IUC. */
function cableRedo(s: Services): Redo {
	const { loadList, askAgain } = endingSteps(s, 'cable');
	return {
		fields: ['iuc'],
		async ask(conversation, ctx, refused) {
			const { iuc, ...base } = refused.request as CableRequest;
			const providers = await loadList(conversation, ctx, 'again-gone', async () =>
				(await s.client.catalog.cable()).filter((p) => p.id === base.provider).map((p) => ({ id: p.id, name: p.name })),
			);
			if (!providers) return;
			const check = iucCheck(s, { id: providers[0].id, name: String(providers[0].name) });
			const holder = await askAgain(conversation, ctx, t('again-iuc', { iuc, what: refused.description }), check);
			return holder && cablePurchase(base, refused.description, holder);
		},
	};
}

export const cable = productFeature('cable', cableQuestions, {
	command: { name: 'cable', description: 'cmd-cable', help: 'help-cable' },
	menu: { label: 'menu-cable', row: 1 },
	redo: cableRedo,
});
