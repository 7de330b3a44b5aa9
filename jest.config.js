/**
 * `npm test`: every test that needs only Node and npm. Suites that need more run through their own
 * scripts: the Redis suite (`npm run test:redis`, needs redis-server), the real-n8n e2e
 * (`npm run test:n8n`) and the browser test (`npm run test:browser`).
 */
const REDIS_SUITE = '/test/bot/redis.test.ts';
const redisOnly = process.env.VTU_TEST_REDIS === '1';

module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: redisOnly ? [`**${REDIS_SUITE}`] : ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/n8n/', '/test/browser/', ...(redisOnly ? [] : [REDIS_SUITE])],
	// Transpile only (type checking is `npm run build`): keeps the suite fast on 2 cores.
	// isolatedModules is read from tsconfig.test.json (ts-jest's own option of that name is deprecated).
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }] },
	testTimeout: 60000,
};
