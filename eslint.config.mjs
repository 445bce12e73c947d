import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import jest from 'eslint-plugin-jest';
import boundaries from './eslint.boundaries.cjs';

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      '.data',
      '.data-test',
      '.tools',
      'coverage',
      'eslint.config.mjs',
      'eslint.boundaries.cjs',
      'jest.config.js',
      'jest.unit.config.js',
      'jest.sequencer.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-console': 'error',
    },
  },
  {
    files: ['scripts/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // A focused or disabled test would leave the run green while others go unrun (scripts/test.sh also fails on skips).
    files: ['test/**'],
    plugins: { jest },
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='todo']", message: 'A todo test is a skipped test.' },
      ],
    },
  },
  ...boundaries,
  prettier,
);
