/** Every test that needs no large download; the real-n8n e2e runs via `npm run test:n8n`. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/test/n8n/'],
  // Transpile only (type checking is `npm run build`): keeps the suite fast on 2 cores.
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] },
  testTimeout: 60000,
};
