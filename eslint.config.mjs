// n8n's community-node lint rules (the same set @n8n/node-cli applies) for nodes/, credentials/
// and package.json; typescript-eslint's recommended rules for the rest of the repo, where Node
// globals (process, timers) are fine because that code never runs inside n8n Cloud.
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    rules: {
      'prefer-spread': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
    extends: [n8nCommunityNodesPlugin.configs.recommended],
    plugins: { 'n8n-nodes-base': n8nNodesBase },
    rules: { 'no-console': 'error' },
  },
  {
    files: ['package.json'],
    plugins: { 'n8n-nodes-base': n8nNodesBase },
    rules: { ...n8nNodesBase.configs.community.rules },
    languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
  },
  {
    files: ['credentials/**/*.ts'],
    rules: {
      ...n8nNodesBase.configs.credentials.rules,
      'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
      'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
    },
  },
  {
    files: ['nodes/**/*.ts'],
    rules: {
      ...n8nNodesBase.configs.nodes.rules,
      'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
      'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
      'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
    },
  },
);
