import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { nairaText } from '../../client/core';
import { planLabel } from '../../client/products/data';
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

export const vtuLoadOptions = {
	async getNetworks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await wrap(this, async () => {
			const client = await getClient(this);
			const networks = await client.catalog.networks();
			return networks.map((n) => ({ name: String(n.name), value: String(n.name) }));
		});
	},

	async getDataPlans(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await wrap(this, async () => {
			const network = currentParam(this, 'network');
			if (network === undefined) return [];
			const client = await getClient(this);
			const plans = await client.catalog.dataPlans(network);
			return plans.map((p) => ({
				name: planLabel(p),
				value: String(p.id),
				description: `Plan ${p.id} on ${p.network}`,
			}));
		});
	},

	async getCableProviders(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await wrap(this, async () => {
			const client = await getClient(this);
			const providers = await client.catalog.cable();
			return providers.map((p) => ({ name: String(p.name), value: String(p.id) }));
		});
	},

	async getCablePackages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await wrap(this, async () => {
			const provider = currentParam(this, 'provider');
			if (provider === undefined) return [];
			const client = await getClient(this);
			const providers = await client.catalog.cable();
			const p = providers.find(
				(x) => String(x.id) === String(provider) || String(x.name).toUpperCase() === String(provider).toUpperCase(),
			);
			return (p?.packages ?? []).map((k) => ({
				name: `${k.name} · ${nairaText(k.price.kobo)}`,
				value: String(k.id),
			}));
		});
	},

	async getDiscos(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await wrap(this, async () => {
			const client = await getClient(this);
			const discos = await client.catalog.discos();
			return discos.map((d) => ({ name: d.name, value: String(d.id) }));
		});
	},

	async getExams(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await wrap(this, async () => {
			const client = await getClient(this);
			const exams = await client.catalog.exams();
			return exams.map((e) => ({ name: `${e.exam} · ${nairaText(e.price.kobo)} per pin`, value: String(e.exam) }));
		});
	},

	async getRechargeDenominations(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await wrap(this, async () => {
			const network = currentParam(this, 'network');
			const client = await getClient(this);
			const all = await client.catalog.recharge();
			const rows =
				network === undefined
					? all
					: all.filter(
							(r) =>
								String(r.networkId) === String(network) ||
								String(r.network).toUpperCase() === String(network).toUpperCase(),
						);
			return rows.map((r) => ({
				name: `${r.network} ${nairaText(r.faceValue.kobo)} card · you pay ${nairaText(r.price.kobo)}`,
				value: String(r.id),
			}));
		});
	},
};
