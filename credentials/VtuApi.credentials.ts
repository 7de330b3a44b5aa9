import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * One credential for every VTU node: the merchant site's base URL and the API token shown on its
 * "API access" page. Requests carry `Authorization: Token <token>` (generic auth, applied by n8n).
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
				'Address of the VTU site, with or without a trailing "/api". Use the URL printed by "npm run sandbox" to try everything without spending money.',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Token from the site\'s API access page (enter your transaction PIN to view it). The account must be of type API.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Token {{$credentials.apiToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "").replace(/\\/api$/i, "")}}',
			url: '/api/user/',
			method: 'GET',
			headers: { Accept: 'application/json' },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The site rejected the API token (HTTP 401). Copy the token again from the site\'s API access page (it changes when it is reset) and paste it without spaces.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The site refused this token (HTTP 403). Either the IP address of your n8n server is not on the site\'s IP whitelist (add it on the pricing page, or empty the list), or the account is not of type API (ask the site owner to upgrade it).',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No VTU API was found at this Base URL (HTTP 404 for /api/user/). Enter the site\'s home address, e.g. https://www.example-vtu.com.ng.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 429,
					message: 'The site is rate limiting requests (HTTP 429). Wait a minute and test again.',
				},
			},
		],
	};
}
