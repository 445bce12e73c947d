/**
 * `npm run test:unit`: rules, pricing, schemas, state machines, workflow logic (against the local Temporal binary,
 * activities replaced), workflow replay and the reference agent (against an in-test server); no database, no stack. `npm test` runs these too, with everything else.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: [
    '<rootDir>/test/unit/**/*.test.ts',
    '<rootDir>/test/workflows/replay.test.ts',
    '<rootDir>/test/fakes/agent/**/*.test.ts',
  ],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023' } }] },
  testTimeout: 30000,
};
