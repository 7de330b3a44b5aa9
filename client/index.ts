/**
 * The client for plain Node: the core (client/core.ts) plus the standalone transports and timer,
 * with `VtuClient` defaulting to them. Not shipped in the n8n package.
 */
export * from './core';
export { VtuClient, timerSleep, type VtuClientOptions } from './standalone';
export { createAxiosTransport, type AxiosTransportOptions } from './transport-axios';
export { createNodeTransport, type NodeTransportOptions } from './transport-node';
