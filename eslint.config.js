import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'agent/drizzle/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      'no-console': 'error',
    },
  },
  {
    // The agent: process.env is read in env.ts only (parsed by zod); features never import each other.
    files: ['agent/src/**/*.ts'],
    ignores: ['agent/src/env.ts', 'agent/src/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read the environment through env.ts (loadEnv).' },
      ],
    },
  },
  {
    // A promise nobody handles ends the agent (Node's unhandled rejection): fire-and-forget work
    // goes through lib/background.ts (inBackground) and async callbacks are not handed to code that
    // ignores what they return. Needs type information, so only for the agent's own sources.
    files: ['agent/src/**/*.ts'],
    ignores: ['agent/src/**/*.test.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['agent/src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!zod$|\\./)', message: 'The contract imports nothing but zod and itself.' },
          ],
        },
      ],
    },
  },
  {
    files: ['agent/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/tests/fixtures/**'], message: 'Production code never imports a test fixture.' },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@nexus/agent/(?!contract$|app$)',
              message: 'The web imports only the agent contract and its client type.',
            },
            { group: ['**/agent/src/**'], message: 'Import the agent through @nexus/agent/contract.' },
          ],
        },
      ],
    },
  },
  {
    files: ['tests/**/*.ts', '**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-console': 'off' },
  },
);
