/**
 * Profile and catalogue reads. Payloads are cached and encoded once (see render.ts); only the profile part is
 * built per request.
 */
import type { FastifyInstance } from 'fastify';
import { apiRoute, type Out, type Runtime } from '../http';
import {
	airtimePayload,
	cablePayload,
	discoPayload,
	examPayload,
	networkPayload,
	rechargePayload,
	smsPayload,
	userPayload,
} from '../render';

/**
 * The cached payload strings, encoded once, with their answer (a bounded set: one per dialect, tier and
 * payload). Nothing downstream changes an Out, so one object serves every request.
 */
const encoded = new Map<string, Out>();
const json = (s: string): Out => {
	let out = encoded.get(s);
	if (out === undefined) encoded.set(s, (out = { status: 200, raw: Buffer.from(s, 'utf8') }));
	return out;
};

export function catalogRoutes(app: FastifyInstance, rt: Runtime): void {
	apiRoute(app, rt, 'GET', '/api/user/', (c) => ({ status: 200, raw: userPayload(c.dialect, c.user) }));
	apiRoute(app, rt, 'GET', '/api/get/network/', (c) => json(networkPayload(c.dialect, c.user.tier)));
	apiRoute(app, rt, 'GET', '/api/get/cable/', (c) => json(cablePayload(c.user.tier)));
	apiRoute(app, rt, 'GET', '/api/get/disco/', () => json(discoPayload()));
	// Seed-only pricing endpoints; the family has none (404), so clients fall back to /api/user/.
	if (rt.state.dialect === 'seed') {
		apiRoute(app, rt, 'GET', '/api/get/exam/', (c) => json(examPayload(c.user.tier)));
		apiRoute(app, rt, 'GET', '/api/get/airtime/', (c) => json(airtimePayload(c.user.tier)));
		apiRoute(app, rt, 'GET', '/api/get/sms/', (c) => json(smsPayload(c.user.tier)));
		apiRoute(app, rt, 'GET', '/api/get/recharge/', (c) => json(rechargePayload(c.user.tier)));
	}
}
