import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { nairaText } from '../../client/core';
import { planLabel } from '../../client/products/data';
import type { CablePackage, DataPlan, RechargeDenomination, VtuClient } from '../../client/core';
import { getClient } from './client';
import { CREDENTIAL_NAME } from './transport';
import { toNodeError } from './errors';

function currentParam(ctx: ILoadOptionsFunctions, name: string): string | number | undefined {
	const v = ctx.getCurrentNodeParameter(name) as string | number | undefined;
	if (v === undefined || v === null || v === '') return undefined;
	if (typeof v === 'string' && v.startsWith('=')) return undefined; // an unresolved expression
	return v;
}

/**
 * Option values are strings (what a sheet or CSV column holds) so that an expression giving "2"
 * matches the dropdown's "2"; networks are listed by name ("MTN"), the same on every site, where
 * their IDs are not. (n8n 2.x marks an expression whose value is not among the options.)
 */
async function wrap(
	ctx: ILoadOptionsFunctions,
	fn: () => Promise<INodePropertyOptions[]>,
): Promise<INodePropertyOptions[]> {
	// The n8n 2.x editor sometimes asks for options before the node's credential is attached: an
	// empty list then (reopening the node fills it) rather than an error shown in the field.
	if (!ctx.getNode().credentials?.[CREDENTIAL_NAME]) return [];
	try {
		return await fn();
	} catch (error) {
		throw toNodeError(ctx.getNode(), error);
	}
}

type Loader<T> = (ctx: ILoadOptionsFunctions, client: () => Promise<VtuClient>) => Promise<readonly T[]>;

/** One dropdown: the list `load` reads (the node's client opened only when needed), one option an entry. */
function dropdown<T>(load: Loader<T>, option: (entry: T) => INodePropertyOptions) {
	return async function (this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await wrap(this, async () => (await load(this, async () => await getClient(this))).map(option));
	};
}

function sameName(a: unknown, b: unknown): boolean {
	return String(a).toUpperCase() === String(b).toUpperCase();
}

const plans: Loader<DataPlan> = async (ctx, client) => {
	const network = currentParam(ctx, 'network');
	return network === undefined ? [] : await (await client()).catalog.dataPlans(network);
};

const packages: Loader<CablePackage> = async (ctx, client) => {
	const provider = currentParam(ctx, 'provider');
	if (provider === undefined) return [];
	const providers = await (await client()).catalog.cable();
	return providers.find((x) => String(x.id) === String(provider) || sameName(x.name, provider))?.packages ?? [];
};

const cards: Loader<RechargeDenomination> = async (ctx, client) => {
	const network = currentParam(ctx, 'network');
	const all = await (await client()).catalog.recharge();
	if (network === undefined) return all;
	return all.filter((r) => String(r.networkId) === String(network) || sameName(r.network, network));
};

/** The nodes' dropdowns, a row each: the list, then how an entry reads. */
export const vtuLoadOptions = {
	getNetworks: dropdown(
		async (_, client) => await (await client()).catalog.networks(),
		(n) => ({ name: String(n.name), value: String(n.name) }),
	),
	getDataPlans: dropdown(plans, (p) => ({
		name: planLabel(p),
		value: String(p.id),
		description: `Plan ${p.id} on ${p.network}`,
	})),
	getCableProviders: dropdown(
		async (_, client) => await (await client()).catalog.cable(),
		(p) => ({ name: String(p.name), value: String(p.id) }),
	),
	getCablePackages: dropdown(packages, (k) => ({
		name: `${k.name} · ${nairaText(k.price.kobo)}`,
		value: String(k.id),
	})),
	getDiscos: dropdown(
		async (_, client) => await (await client()).catalog.discos(),
		(d) => ({ name: d.name, value: String(d.id) }),
	),
	getExams: dropdown(
		async (_, client) => await (await client()).catalog.exams(),
		(e) => ({ name: `${e.exam} · ${nairaText(e.price.kobo)} per pin`, value: String(e.exam) }),
	),
	getRechargeDenominations: dropdown(cards, (r) => ({
		name: `${r.network} ${nairaText(r.faceValue.kobo)} card · you pay ${nairaText(r.price.kobo)}`,
		value: String(r.id),
	})),
};
