// Lint rules for the code that never runs inside n8n: the bot, the sandbox, tests, benchmarks and
// the client's standalone (plain Node) transport. Node globals (process, timers, node:http) are fine
// there. Each of those folders has an eslint.config.mjs re-exporting this; `npm run lint` runs ESLint
// with config lookup from each file's folder (ESLINT_FLAGS=v10_config_lookup_from_file), so the root
// eslint.config.mjs stays n8n's default, as `"strict": true` requires, and covers nodes/,
// credentials/ and package.json.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['**/*.js', '**/*.mjs', '**/*.cjs'] },
	{
		files: ['**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		rules: {
			'prefer-spread': 'off',
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
);
