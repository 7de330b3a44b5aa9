/**
 * What the client core needs from its host besides the transport. Injected, so the core uses no
 * timer globals or Node modules (n8n Cloud's rules for community nodes): n8n nodes pass
 * n8n-workflow's sleep, plain Node passes `timerSleep` (client/index.ts wires it).
 */

/** Wait `ms`; reject when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Milliseconds since the epoch. */
export type Clock = () => number;
