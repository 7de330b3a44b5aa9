import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_RECONCILE } from '../client/purchase';

/**
 * The client's default bound on the vendor's processing time (reconcile.maxProcessingMs), in seconds.
 * 180 s only where a client predates the option: slow vendors were seen creating records 40–120 s after
 * the purchase was sent, and a bound too short is what lets "not charged" be said of a purchase that went
 * through.
 */
export const VENDOR_PROCESSING_SECONDS_DEFAULT =
	((DEFAULT_RECONCILE as Partial<{ maxProcessingMs: number }>).maxProcessingMs ?? 180_000) / 1000;

/**
 * One credential for every VTU node: the merchant site's base URL and the API token shown on its
 * "API access" page. Requests carry `Authorization: Token <token>`, applied by n8n.
 *
 * No declarative `test` here on purpose: n8n prefers it over the nodes' `testedBy` function and shows
 * only generic texts ("Authorization failed"). `vtuApiTest` (nodes/shared/credentialTest.ts) says *why*
 * a test failed: bad token, IP not whitelisted or account not of type API, unreachable Base URL.
 */
export class VtuApi implements ICredentialType {
	name = 'vtuApi';

	displayName = 'VTU API';

	icon: Icon = { light: 'file:../icons/vtu.svg', dark: 'file:../icons/vtu.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-vtu/n8n-nodes-vtu#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://www.example-vtu.com.ng',
			description:
				'Address of the VTU site, with or without a trailing "/api". Use the URL printed by "npm run ' +
				'sandbox" to try everything without spending money.',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"Token from the site's API access page (enter your transaction PIN to view it). The account must be of type API.",
		},
		{
			displayName: 'Other Buyers Use This Token',
			name: 'sharedAccount',
			type: 'boolean',
			default: true,
			description:
				'Whether anything besides this one n8n process buys with this token: n8n workers (queue mode), ' +
				'another n8n, the Telegram bot, the website or app, your own scripts. It matters only when a ' +
				"purchase's answer was lost on the way back. On: a record found afterwards is taken as this " +
				'purchase\'s only when it is provably its own; otherwise the item ends as "unknown outcome" ' +
				'with the records to check, to be settled later with VTU Transaction → Resolve Unclear ' +
				'Purchase. Off: a single record that matches is taken as this purchase\'s. Either way "not ' +
				'charged" is only said once the site\'s records prove it.',
		},
		{
			displayName: 'Vendor Processing Time (Seconds)',
			name: 'vendorProcessingSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: VENDOR_PROCESSING_SECONDS_DEFAULT,
			description:
				'Longest the site (or the network provider behind it) may take to record a purchase after it ' +
				'was sent. Until this much time has passed since a purchase whose answer was lost, it is never ' +
				'reported as "not charged", only as "unknown outcome". Raise it if your site is sometimes ' +
				'slower; lowering it below what the site really takes can report a purchase that went through ' +
				'as not charged.',
		},
		{
			displayName: 'Send Client Reference',
			name: 'customerRef',
			type: 'boolean',
			default: false,
			description:
				'Whether to send a fresh customer_ref with every purchase. Some newer site builds store and ' +
				"echo it, which proves whose a record is even with other buyers. Turn on only if your site's " +
				'transaction records show it.',
		},
		{
			displayName: 'SMS Rate per Page (₦)',
			name: 'smsRate',
			type: 'string',
			default: '',
			placeholder: '2.50',
			description:
				'What your site charges per SMS page per number, from its pricing page. Leave empty if unsure: ' +
				"the first batch's wallet change shows it, and until then quotes and the Spend Cap assume ₦2.50 " +
				'(the highest rate seen on these sites).',
		},
		{
			displayName: 'SMS DND Rate per Page (₦)',
			name: 'smsDndRate',
			type: 'string',
			default: '',
			placeholder: '3.50',
			description:
				'The same for the DND route. Leave empty if unsure: ₦3.50 is assumed until a DND batch shows the real rate.',
		},
	];

	/**
	 * A function rather than generic auth (`'=Token {{$credentials.apiToken}}'`): n8n resolves a
	 * generic header through its expression engine on every request (about 1.7 ms of CPU each), this
	 * is a string concatenation.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Token ${String(credentials.apiToken).trim()}` },
		};
	}
}
