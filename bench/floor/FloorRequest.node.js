'use strict';
/**
 * bench-only floor node (bench/n8n.js loads it beside the package's nodes): the least a verified node can
 * do per item, one POST /api/topup/ through n8n's request helpers with the vtuApi credential, every item at
 * once, the answer as the item. No parameters read per item, no checks, no reconciliation: a purchase
 * node cannot be cheaper than this in n8n.
 */
class FloorRequest {
	constructor() {
		this.description = {
			displayName: 'Floor Request (bench)',
			name: 'floorRequest',
			group: ['transform'],
			version: 1,
			description: 'Bench only: one airtime POST per item through n8n request helpers',
			defaults: { name: 'Floor Request' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'vtuApi', required: true }],
			properties: [],
		};
	}

	async execute() {
		const items = this.getInputData();
		const { baseUrl } = await this.getCredentials('vtuApi');
		const url = `${String(baseUrl).replace(/\/+$/, '')}/api/topup/`;
		const out = await Promise.all(
			items.map(async (item, i) => {
				const json = await this.helpers.httpRequestWithAuthentication.call(this, 'vtuApi', {
					method: 'POST',
					url,
					body: {
						network: 1,
						amount: item.json.amount,
						mobile_number: item.json.phone,
						Ported_number: false,
						airtime_type: 'VTU',
					},
					json: true,
				});
				return { json, pairedItem: { item: i } };
			}),
		);
		return [out];
	}
}

module.exports = { FloorRequest };
