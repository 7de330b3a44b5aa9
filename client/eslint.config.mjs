// The client core ships inside the n8n package, so it is held to n8n Cloud's restrictions on
// community nodes: no Node modules beyond the allowed ones, no process/timer globals. It is a plain
// library (its errors are VtuError; the nodes turn them into NodeApiError/NodeOperationError), so
// the node-only rules do not apply. The standalone entry for plain Node (index.ts, standalone.ts and
// the transports it wires) is excluded from the package (package.json "files") and from this check.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import repo from '../eslint.repo.mjs';

export default [
	...repo,
	{
		files: ['**/*.ts'],
		ignores: ['index.ts', 'standalone.ts', 'transport-node.ts', 'transport-axios.ts'],
		plugins: { '@n8n/community-nodes': n8nCommunityNodesPlugin },
		rules: {
			'@n8n/community-nodes/no-restricted-globals': 'error',
			'@n8n/community-nodes/no-restricted-imports': 'error',
		},
	},
];
