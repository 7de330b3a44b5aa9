/**
 * The documented aliases (client/API.md "Names, ids and aliases"): besides an id or the exact name a site
 * lists, a user may type one of these for a network, a cable provider or a disco. Nothing else is
 * matched: no prefixes, no "closest" name (a guess once bought Kano Electric for "Ka").
 * Names compare by `nameKey`: case, spaces, dots, dashes and other punctuation are ignored.
 */

/** "Port-Harcourt " → "portharcourt", "9 Mobile" → "9mobile". */
export function nameKey(s: string): string {
	return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export type AliasTable = Readonly<Record<string, readonly string[]>>;

/** Group → names. The group is the name used when the site's own name is an alias (e.g. a site listing "IKEDC"). */
export const NETWORK_ALIASES: AliasTable = {
	MTN: ['MTN'],
	GLO: ['GLO', 'Globacom'],
	AIRTEL: ['AIRTEL'],
	'9MOBILE': ['9MOBILE', 'ETISALAT', 'T2', 'T2 Mobile'], // Etisalat Nigeria became 9mobile (2017), then T2 (2025)
	SMILE: ['SMILE'],
};

export const CABLE_ALIASES: AliasTable = {
	GOTV: ['GOTV'],
	DSTV: ['DSTV'],
	STARTIME: ['STARTIME', 'STARTIMES'],
};

/** The eleven distribution companies plus Aba Power, with the city and the acronym each is known by. */
export const DISCO_ALIASES: AliasTable = {
	'Ikeja Electric': ['Ikeja Electric', 'Ikeja', 'IKEDC'],
	'Eko Electric': ['Eko Electric', 'Eko', 'EKEDC', 'EKEDP'],
	'Abuja Electric': ['Abuja Electric', 'Abuja', 'AEDC'],
	'Kano Electric': ['Kano Electric', 'Kano', 'KEDCO'],
	'Enugu Electric': ['Enugu Electric', 'Enugu', 'EEDC'],
	'Port Harcourt Electric': ['Port Harcourt Electric', 'Port Harcourt', 'PHED', 'PHEDC'],
	'Ibadan Electric': ['Ibadan Electric', 'Ibadan', 'IBEDC'],
	'Kaduna Electric': ['Kaduna Electric', 'Kaduna', 'KAEDCO'],
	'Jos Electric': ['Jos Electric', 'Jos', 'JED', 'JEDC'],
	'Benin Electric': ['Benin Electric', 'Benin', 'BEDC'],
	'Yola Electric': ['Yola Electric', 'Yola', 'YEDC'],
	'Aba Electric': ['Aba Electric', 'Aba', 'Aba Power', 'APLE'],
};

/** nameKey(alias) → group, built once per table. */
export function aliasIndex(table: AliasTable): Map<string, string> {
	const m = new Map<string, string>();
	for (const [group, names] of Object.entries(table)) for (const n of names) m.set(nameKey(n), group);
	return m;
}

export const NETWORK_GROUPS = aliasIndex(NETWORK_ALIASES);
export const CABLE_GROUPS = aliasIndex(CABLE_ALIASES);
export const DISCO_GROUPS = aliasIndex(DISCO_ALIASES);

/**
 * The group of a disco as a site names it: "Ikeja Electric", "IKEDC", "Ikeja Electricity Distribution
 * Company", "Abuja Electric (AEDC)". Undefined when the name is none of the known ones.
 */
export function discoGroup(siteName: string): string | undefined {
	const paren = /\(([^)]*)\)/.exec(siteName)?.[1];
	const bare = siteName.toLowerCase().replace(/\(.*?\)|electric(ity)?|distribution|company|disco|plc|limited|ltd/g, '');
	for (const k of [nameKey(siteName), nameKey(bare), paren ? nameKey(paren) : '']) {
		const g = k ? DISCO_GROUPS.get(k) : undefined;
		if (g) return g;
	}
	return undefined;
}
