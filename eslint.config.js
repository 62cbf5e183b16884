import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import checkFile from 'eslint-plugin-check-file';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * ESLint gives a rule the options of the last config object that sets it for a file, not a merge
 * of them all: each set of files below sets `no-restricted-imports` once, from these lists
 * (tests/unit/lint-rules.test.ts holds every layer's rule in force).
 */
const NO_TEST_FIXTURES = {
  group: ['**/tests/fixtures/**'],
  message: 'Production code never imports a test fixture.',
};
const WEB_IMPORT_PATTERNS = [
  { regex: '^@nexus/agent/(?!contract$)', message: 'The web imports only the agent contract.' },
  { group: ['**/agent/src/**'], message: 'Import the agent through @nexus/agent/contract.' },
  NO_TEST_FIXTURES,
];

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
    // The agent: process.env is read in env.ts only (parsed by zod). Features import each other only
    // through the other feature's index.ts (the boundaries block below holds that).
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
    // Layers (docs/web-data-layer.md). Web: app -> features -> data, components -> lib; data never
    // imports components or features, components never import features or data, lib imports none of
    // them. Agent: a feature imports another feature only through that feature's public index.ts.
    files: ['web/src/**/*.{ts,tsx}', 'agent/src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': {
        typescript: { project: ['web/tsconfig.json', 'agent/tsconfig.json'], noWarnOnMultipleProjects: true },
      },
      'boundaries/elements': [
        { type: 'web-app', pattern: 'web/src/app' },
        { type: 'web-feature', pattern: 'web/src/features/*', capture: ['feature'] },
        { type: 'web-data', pattern: 'web/src/data' },
        { type: 'web-components', pattern: 'web/src/components' },
        { type: 'web-lib', pattern: 'web/src/lib' },
        { type: 'agent-feature', pattern: 'agent/src/features/*', capture: ['feature'] },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'web-data' } },
              disallow: {
                to: { element: { types: { anyOf: ['web-app', 'web-feature', 'web-components'] } } },
              },
              message: 'The data layer (web/src/data) never imports a screen, a component or the app shell.',
            },
            {
              from: { element: { type: 'web-components' } },
              disallow: { to: { element: { types: { anyOf: ['web-app', 'web-feature', 'web-data'] } } } },
              message: 'Shared components take data as props: they never import a feature or the data layer.',
            },
            {
              from: { element: { type: 'web-lib' } },
              disallow: {
                to: {
                  element: { types: { anyOf: ['web-app', 'web-feature', 'web-data', 'web-components'] } },
                },
              },
              message:
                'web/src/lib is the bottom layer: it imports no app, feature, data or component module.',
            },
            {
              from: { element: { type: 'web-feature' } },
              disallow: { to: { element: { type: 'web-app' } } },
              message: 'Screens never import the app shell (web/src/app).',
            },
            {
              from: { element: { type: 'agent-feature' } },
              disallow: {
                to: { element: { type: 'agent-feature', fileInternalPath: '!index.ts' } },
              },
              message: 'Import another agent feature through its index.ts only (its public surface).',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests wire real collaborators from several features together; the slice rule is for the code that ships.
    files: ['agent/src/**/*.test.ts'],
    rules: { 'boundaries/dependencies': 'off' },
  },
  {
    // kebab-case file and folder names, so imports read the same on every file system.
    files: ['web/src/**/*.{ts,tsx}', 'agent/src/**/*.ts', 'tests/**/*.ts'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { '{web,agent}/src/**/': 'KEBAB_CASE' }],
    },
  },
  {
    files: ['agent/src/contract/**/*.ts'],
    ignores: ['agent/src/contract/**/*.test.ts'],
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
    // The contract's own rule (above) already allows nothing but zod.
    files: ['agent/src/**/*.ts'],
    ignores: ['agent/src/contract/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TEST_FIXTURES] }] },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // A phone that changes networks fails the fetches in flight; code loaded through lib/lazy-code
      // is fetched again a moment later instead of leaving a screen or a menu broken.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'ImportExpression:not(CallExpression[callee.name=/^(screen|lazyComponent|sharedLoad|loadCode)$/] ImportExpression)',
          message:
            'Load code through lib/lazy-code (screen, lazyComponent, sharedLoad or loadCode), which retries a failed fetch.',
        },
      ],
      'no-restricted-imports': ['error', { patterns: WEB_IMPORT_PATTERNS }],
    },
  },
  {
    // Screens, the app shell and shared components never talk HTTP: web/src/data is the only place
    // that knows an endpoint, a key or how an answer is parsed (docs/web-data-layer.md). After the
    // block for all of web/src, whose import rule this one extends.
    files: ['web/src/{app,features,components}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the agent through a web/src/data module.' },
        { name: 'EventSource', message: 'Call the agent through a web/src/data module.' },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@/lib/request',
              importNames: ['apiJson', 'apiRequest', 'throwIfNotOk'],
              message: 'Call the agent through a web/src/data module.',
            },
            { name: '@/lib/ndjson', message: 'Call the agent through a web/src/data module.' },
          ],
          patterns: WEB_IMPORT_PATTERNS,
        },
      ],
    },
  },
  {
    files: ['tests/**/*.ts', '**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-console': 'off' },
  },
);
