/**
 * What a record carries once its status is known: electricity tokens, exam pins,
 * recharge cards and the upstream's human text. Generated from the seeded RNG.
 */
import { cablePlanById, EXAMS, networkById, planById, planName } from './catalog';
import type { SandboxState, Txn } from './state';

const group4 = (s: string): string => s.match(/.{1,4}/g)!.join('-');

export function deliver(txn: Txn, state: SandboxState): void {
	const d = txn.d;
	const rng = state.rng;
	if (txn.status === 'processing') {
		d.apiResponse = 'Transaction is processing';
		return;
	}
	if (txn.status === 'failed') {
		d.apiResponse = 'Transaction failed, your wallet has been refunded';
		return;
	}
	switch (txn.product) {
		case 'data': {
			const p = planById.get(d.planId!)!;
			d.apiResponse = `Dear Customer, You have successfully shared ${planName(p)} Data to 234${txn.recipient.slice(1)}.`;
			break;
		}
		case 'airtime':
			d.apiResponse = `You have successfully topped up ${txn.recipient}`;
			break;
		case 'cable':
			d.apiResponse = `${cablePlanById.get(d.cablePlanId!)!.name} subscription successful for ${txn.recipient}`;
			break;
		case 'electricity':
			if (!d.token) d.token = d.meterType === 'Prepaid' ? group4(rng.digits(20)) : '';
			d.apiResponse = 'Electricity payment successful';
			break;
		case 'exam_pin':
			if (!d.pins) {
				const prefix = EXAMS.find((e) => e.name === d.exam)!.name.slice(0, 2);
				const rows = Array.from({ length: d.quantity! }, () => ({
					pin: rng.digits(12),
					serial: `${prefix}R${rng.digits(9)}`,
				}));
				d.pins = rows.map((r) => r.pin);
				d.raw = rows.map((r) => `Serial No:${r.serial}, pin: ${r.pin}`).join('<=>');
			}
			break;
		case 'data_coupon':
		case 'recharge_card':
			if (!d.cards) {
				const len = networkById.get(d.networkId!)!.name === 'MTN' ? 17 : 16;
				d.cards = Array.from({ length: d.quantity! }, () => ({
					pk: state.nextCardPk(),
					pin: rng.digits(len),
					serial: `SN${rng.digits(11)}`,
				}));
			}
			break;
		case 'sms':
			d.apiResponse = 'Message succesfully sent ';
			break;
	}
}
