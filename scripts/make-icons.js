#!/usr/bin/env node
/**
 * Writes every node's icon pair (nodes/<Node>/<name>.svg and .dark.svg): one pictogram per product on
 * a tile of the product's own colour, so the nodes panel tells them apart at a glance.
 * Light: white pictogram on a saturated tile. Dark: near-black pictogram on a lighter tint of the
 * same colour (reads on n8n's dark canvas). Edit a glyph or colour here and run `node scripts/make-icons.js`;
 * `npm run build` (gulp build:icons) copies the files next to the compiled nodes.
 */
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

// `fg` is the pictogram's colour, `ac` the accent drawn on top of it (the tile's colour).
// Pieces several glyphs share (spelled out once, so each glyph's line stays short; the SVG is the same).
const line = (fg, width) => `stroke="${fg}" stroke-width="${width}" fill="none"`;
const JOIN = 'stroke-linejoin="round"';
const ROUND = `stroke-linecap="round" ${JOIN}`;
const dots = (fill, r, cy, xs) => xs.map((cx) => `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>`).join('');
const HANDSET =
	'M17 11c2-2 5-2 6.5.5l4 7c1 2 .5 4-1.5 5.5l-3 2c2.5 5.5 6.5 9.5 12 12l2-3c1.5-2 3.5-2.5 5.5-1.5l7 4c2.5 1.5 ' +
	'2.5 4.5.5 6.5l-3.5 3.5c-4.5 4.5-16 .5-25-8.5S9 20.5 13.5 15z';

const GLYPHS = {
	// signal bars with a download arrow
	data: (fg) => `
    <rect x="12" y="40" width="7" height="12" rx="2" fill="${fg}"/>
    <rect x="22" y="32" width="7" height="20" rx="2" fill="${fg}"/>
    <rect x="32" y="24" width="7" height="28" rx="2" fill="${fg}"/>
    <rect x="42" y="14" width="7" height="38" rx="2" fill="${fg}"/>
    <path d="M20 10v14m-6-6 6 6 6-6" ${line(fg, 4)} ${ROUND}/>`,
	// a phone handset with call waves
	airtime: (fg) => `
    <path d="${HANDSET}" fill="${fg}"/>
    <path d="M37 12a15 15 0 0 1 15 15M37 20a7 7 0 0 1 7 7" ${line(fg, 4)} stroke-linecap="round"/>`,
	// a television with an antenna and a play mark
	cable: (fg, ac) => `
    <path d="M24 9l8 9 8-9" stroke="${fg}" stroke-width="4" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
    <rect x="9" y="18" width="46" height="32" rx="5" fill="${fg}"/>
    <path d="M28 27v14l12-7z" fill="${ac}"/>
    <rect x="22" y="52" width="20" height="4" rx="2" fill="${fg}"/>`,
	// a lightning bolt
	electricity: (fg) => `
    <path d="M37 6L14 36h15l-4 22 25-32H35l4-20z" fill="${fg}" stroke="${fg}" stroke-width="2" ${JOIN}/>`,
	// a graduation cap with tassel
	exam_pin: (fg) => `
    <path d="M32 12L5 25l27 13 27-13z" fill="${fg}"/>
    <path d="M16 32v10c0 4.5 7 8 16 8s16-3.5 16-8V32l-16 8z" fill="${fg}"/>
    <path d="M54 27v15" stroke="${fg}" stroke-width="3.5" stroke-linecap="round"/>
    <circle cx="54" cy="45" r="3.5" fill="${fg}"/>`,
	// a scratch card: card, silver strip with a zigzag, and a PIN row
	recharge_card: (fg, ac) => `
    <rect x="7" y="14" width="50" height="36" rx="5" fill="${fg}"/>
    <path d="M14 26h36v9H14z" fill="${ac}"/>
    <path d="M16 30.5l3-3 3 6 3-6 3 6 3-6 3 6 3-6 3 6 3-6 3 3" ${line(fg, 2)} ${JOIN}/>
    ${dots(ac, 2.5, 42, [17, 25, 33, 41])}`,
	// a speech bubble with three dots
	sms: (fg, ac) => `
    <path d="M12 11h40a5 5 0 0 1 5 5v24a5 5 0 0 1-5 5H30l-12 10v-10h-6a5 5 0 0 1-5-5V16a5 5 0 0 1 5-5z" fill="${fg}"/>
    ${dots(ac, 4, 28, [21, 32, 43])}`,
	// an ID card with a portrait and text lines
	identity: (fg, ac) => `
    <rect x="6" y="13" width="52" height="38" rx="5" fill="${fg}"/>
    <circle cx="21" cy="28" r="6" fill="${ac}"/>
    <path d="M11 45c1-6 5-9 10-9s9 3 10 9z" fill="${ac}"/>
    <rect x="35" y="24" width="17" height="4" rx="2" fill="${ac}"/>
    <rect x="35" y="32" width="17" height="4" rx="2" fill="${ac}"/>
    <rect x="35" y="40" width="11" height="4" rx="2" fill="${ac}"/>`,
	// a receipt with a torn edge and lines
	transaction: (fg, ac) => `
    <path d="M15 7h34v50l-5.5-4-5.5 4-5.5-4-5.5 4-5.5-4-6.5 4z" fill="${fg}"/>
    <rect x="21" y="16" width="22" height="4" rx="2" fill="${ac}"/>
    <rect x="21" y="25" width="22" height="4" rx="2" fill="${ac}"/>
    <rect x="21" y="34" width="13" height="4" rx="2" fill="${ac}"/>
    <rect x="36" y="34" width="7" height="4" rx="2" fill="${ac}"/>`,
	// a receipt watched by circular arrows (polls for new transactions)
	trigger: (fg, ac) => `
    <path d="M52 30a20 20 0 0 0-35-12" stroke="${fg}" stroke-width="4.5" fill="none" stroke-linecap="round"/>
    <path d="M12 9v12h12" stroke="${fg}" stroke-width="4.5" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
    <path d="M12 34a20 20 0 0 0 35 12" stroke="${fg}" stroke-width="4.5" fill="none" stroke-linecap="round"/>
    <path d="M52 55V43H40" ${line(fg, 4.5)} ${ROUND}/>
    <rect x="24" y="21" width="16" height="22" rx="2.5" fill="${fg}"/>
    <rect x="27.5" y="26" width="9" height="3" rx="1.5" fill="${ac}"/>
    <rect x="27.5" y="33" width="9" height="3" rx="1.5" fill="${ac}"/>`,
	// a wallet with a clasp
	wallet: (fg, ac) => `
    <path d="M12 18l26-9 4 9z" fill="${fg}"/>
    <rect x="7" y="18" width="48" height="36" rx="6" fill="${fg}"/>
    <path d="M40 29h17v14H40a7 7 0 0 1 0-14z" fill="${ac}"/>
    <circle cx="42" cy="36" r="3" fill="${fg}"/>`,
};

// [node folder, icon file stem, glyph, light tile, dark tile]
const NODES = [
	['VtuData', 'vtuData', 'data', '#2563eb', '#60a5fa'],
	['VtuAirtime', 'vtuAirtime', 'airtime', '#16a34a', '#4ade80'],
	['VtuCableTv', 'vtuCableTv', 'cable', '#7c3aed', '#a78bfa'],
	['VtuElectricity', 'vtuElectricity', 'electricity', '#d97706', '#fbbf24'],
	['VtuExamPin', 'vtuExamPin', 'exam_pin', '#dc2626', '#f87171'],
	['VtuRechargeCard', 'vtuRechargeCard', 'recharge_card', '#0d9488', '#2dd4bf'],
	['VtuBulkSms', 'vtuBulkSms', 'sms', '#0284c7', '#38bdf8'],
	['VtuIdentity', 'vtuIdentity', 'identity', '#475569', '#94a3b8'],
	['VtuTransaction', 'vtuTransaction', 'transaction', '#4f46e5', '#818cf8'],
	['VtuTransactionTrigger', 'vtuTransactionTrigger', 'trigger', '#ea580c', '#fb923c'],
	['VtuWallet', 'vtuWallet', 'wallet', '#db2777', '#f472b6'],
];

const DARK_FG = '#0f172a';

function svg(glyph, tile, fg) {
	return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
  <rect x="1" y="1" width="62" height="62" rx="14" fill="${tile}"/>${GLYPHS[glyph](fg, tile)}
</svg>
`;
}

const root = join(__dirname, '..', 'nodes');
for (const [dir, stem, glyph, light, dark] of NODES) {
	writeFileSync(join(root, dir, `${stem}.svg`), svg(glyph, light, '#ffffff'));
	writeFileSync(join(root, dir, `${stem}.dark.svg`), svg(glyph, dark, DARK_FG));
}
process.stdout.write(`wrote ${NODES.length * 2} icons under nodes/\n`);
