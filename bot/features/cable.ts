/** /cable: provider → package → IUC (checked with the site, the customer's name shown) → checks → confirm. */
import type { Services } from '../context';
import { choiceSteps, customerPricer, type Item, type Pricer } from '../flow/choices';
import type { AccountCheck } from '../flow/validate';
import { t } from '../i18n';
import { naira } from '../orders';
import { PRODUCT_TABLE, type CableProvider } from '../vtu';
import { endingSteps, productFeature, sentTo, type Questions } from './product';

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

function cableQuestions(s: Services): Questions {
	const { pickOne, pickNext } = choiceSteps(s);
	const { loadList, askHolder } = endingSteps(s, 'cable');

	const iucCheck = (provider: Provider): AccountCheck => ({
		field: 'iuc',
		what: t('cable-iuc-what'),
		digits: IUC,
		hint: t('cable-iuc-prompt', { provider: provider.name, min: IUC.min, max: IUC.max }),
		validate: (iuc) => s.client.cable.validate({ provider: provider.id, iuc }),
		unknown: (iuc) => t('cable-iuc-unknown', { provider: provider.name, iuc }),
	});

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
		const holder = await askHolder(conversation, ctx, second.c, iucCheck(provider), (prompt) =>
			t('cable-package-chosen', { package: second.item.text, prompt }),
		);
		if (!holder) return;
		const { number: iuc, name } = holder;
		const description = t('cable-description', { provider: provider.name, package: pkg.name });
		const target = t('cable-target', { iuc, name });
		return {
			request: { product: 'cable', provider: provider.id, package: pkg.id, iuc },
			meta: sentTo(description, target, iuc),
		};
	};
}

export const cable = productFeature('cable', cableQuestions, {
	command: { name: 'cable', description: 'cmd-cable', help: 'help-cable' },
	menu: { label: 'menu-cable', row: 1 },
});
