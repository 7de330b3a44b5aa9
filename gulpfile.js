// The build step `n8n-node build` does not do: it compiles TypeScript and copies icons (png/svg),
// but not the nodes' codex files (<Node>.node.json: categories, documentation links), which n8n
// reads next to each compiled node. `npm run build` runs `n8n-node build`, then this.
const { src, dest } = require('gulp');

function buildCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

exports['build:codex'] = buildCodex;
