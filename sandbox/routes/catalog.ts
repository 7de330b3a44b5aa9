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

/** The cached payload strings, encoded once (a bounded set: one per dialect, tier and payload). */
const encoded = new Map<string, Buffer>();
const json = (s: string): Out => {
	let raw = encoded.get(s);
	if (raw === undefined) encoded.set(s, (raw = Buffer.from(s, 'utf8')));
	return { status: 200, raw };
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
