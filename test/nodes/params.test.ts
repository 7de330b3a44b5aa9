/** itemParam: which parameters are read straight from the input item, and which go to n8n. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { itemParam } from '../../nodes/shared/params';

/** A context whose expression evaluation is visible: evaluated values come back tagged. */
function ctx(parameters: Record<string, unknown>, items: Array<Record<string, unknown>>) {
	const evaluated: string[] = [];
	const c = {
		getNodeParameter(name: string, _i: number, fallback: unknown, opts?: { rawExpressions?: boolean }) {
			const raw = name in parameters ? parameters[name] : fallback;
			if (opts?.rawExpressions || typeof raw !== 'string' || !raw.startsWith('=')) return raw;
			evaluated.push(name);
			return `n8n:${raw}`;
		},
		getInputData: () => items.map((json) => ({ json })),
	};
	return { c: c as unknown as IExecuteFunctions, evaluated };
}

test.each([
	['={{ $json.phone }}', '0803'],
	['={{$json.phone}}', '0803'],
	['={{ $json["Phone Number"] }}', '0806'],
	["={{ $json['Phone Number'] }}", '0806'],
	['={{ $json.missing }}', undefined],
])('%s is read from the item, not evaluated', (expr, want) => {
	const { c, evaluated } = ctx({ p: expr }, [{ phone: '0803', 'Phone Number': '0806' }]);
	expect(itemParam(c, 'p', 0, '')).toBe(want);
	expect(evaluated).toEqual([]);
});

test.each([
	'={{ $json.phone.trim() }}',
	'=0{{ $json.phone }}',
	'={{ $json.a.b }}',
	'={{ $json["x"] + $json["y"] }}',
	'={{ $("Sheet").item.json.phone }}',
	'={{ $json.phone }} {{ $json.phone }}',
])('%s goes to n8n', (expr) => {
	const { c, evaluated } = ctx({ p: expr }, [{ phone: '0803' }]);
	expect(itemParam(c, 'p', 0, '')).toBe(`n8n:${expr}`);
	expect(evaluated).toEqual(['p']);
});

test('plain values and a missing item are left to n8n', () => {
	const { c, evaluated } = ctx({ p: '08031234567', q: '={{ $json.phone }}' }, []);
	expect(itemParam(c, 'p', 0, '')).toBe('08031234567');
	expect(itemParam(c, 'q', 3, '')).toBe('n8n:={{ $json.phone }}');
	expect(evaluated).toEqual(['q']);
});
