/**
 * The client for plain Node (the bot, scripts, your own programs): the core VtuClient with the
 * keep-alive node:http transport and a setTimeout sleep as defaults. Not part of the n8n package
 * (package.json "files"): inside n8n the nodes inject n8n's request helpers and n8n-workflow's sleep.
 */
import { VtuClient as CoreClient, type VtuClientOptions as CoreOptions } from './client';
import type { Sleep } from './runtime';
import type { Transport } from './transport';
import { createNodeTransport } from './transport-node';

export type VtuClientOptions = Omit<CoreOptions, 'transport' | 'sleep'> &
	Partial<Pick<CoreOptions, 'transport' | 'sleep'>>;

export const timerSleep: Sleep = (ms, signal) =>
	new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(new Error('aborted'));
		const onAbort = () => {
			clearTimeout(t);
			reject(new Error('aborted'));
		};
		const t = setTimeout(
			() => {
				signal?.removeEventListener('abort', onAbort);
				resolve();
			},
			Math.max(0, ms),
		);
		signal?.addEventListener('abort', onAbort, { once: true });
	});

let defaultTransport: Transport | undefined;

export class VtuClient extends CoreClient {
	/**
	 * Default transport: createNodeTransport() (node:http keep-alive, the fastest in bench:client); default sleep:
	 * timerSleep.
	 */
	constructor(opts: VtuClientOptions) {
		super(
			opts && typeof opts === 'object'
				? {
						...opts,
						transport: opts.transport ?? (defaultTransport ??= createNodeTransport()),
						sleep: opts.sleep ?? timerSleep,
					}
				: (opts as unknown as CoreOptions),
		);
	}
}
