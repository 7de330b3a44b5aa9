/** Only a refusal of exactly the MeterType choice makes the client send a purchase again in the other encoding. */
import { VtuInvalidInputError, VtuUnknownOutcomeError } from '../../client';
import { refusedMeterType } from '../../client/products/electricity/meter-type';

const refusal = (serverMessage: string, httpStatus = 400) =>
	new VtuInvalidInputError('refused', { serverMessage, httpStatus });

test.each([
	['MeterType: "1" is not a valid choice.', true],
	['MeterType: "Prepaid" is not a valid choice.', true],
	['MeterType: This field is required.', false],
	['disco_name: Invalid pk "99" - object does not exist.', false],
	['BELOW MINIMUM AMOUNT ALLOWED (N500)', false],
	['insufficient balance, your current balance N12', false],
])('%s → another try: %s', (msg, retry) => {
	expect(refusedMeterType(refusal(msg))).toBe(retry);
});

test('never after anything but a 400 refusal', () => {
	expect(refusedMeterType(refusal('MeterType: "1" is not a valid choice.', 500))).toBe(false);
	expect(
		refusedMeterType(new VtuUnknownOutcomeError('lost', { serverMessage: 'MeterType: "1" is not a valid choice.' })),
	).toBe(false);
});
