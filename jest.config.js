const os = require('node:os');

/**
 * `npm test`'s Jest run: one private stack (global setup), test files in parallel workers on it. Most suites spend
 * their time waiting (HTTP, Temporal, timers), not computing, so more workers than cores pay: 3 on 2 cores (docs/
 * operations.md, "Testing"). `-w N` or JEST_WORKERS=N overrides it. (Jest reads a percentage over 100% as a count,
 * hence the arithmetic.)
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023' } }] },
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  maxWorkers: Number(process.env.JEST_WORKERS) || Math.ceil(os.availableParallelism() * 1.5),
  testSequencer: '<rootDir>/jest.sequencer.js',
  // Four minutes: the gates walk every route, and a slower 2-core machine took over one for several of them.
  testTimeout: 240000,
};
