// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-plugin-prettier/recommended';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** The architecture's import lines (shared/ARCHITECTURE.md): who may import whom. */
const layer = (/** @type {string[]} */ forbidden, /** @type {string} */ why) => ({
  'no-restricted-imports': [
    'error',
    { patterns: forbidden.map((dir) => ({ group: [`**/${dir}`, `**/${dir}/**`], message: why })) },
  ],
});

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      ...layer(
        ['worker', 'server'],
        'src/ talks to the worker only through src/workspace-client.ts; it never imports worker/ or server/.',
      ),
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Network calls belong in worker/ (the API client).' },
        { name: 'EventSource', message: 'Streams belong in worker/.' },
        { name: 'indexedDB', message: 'Storage belongs in worker/ (the mirror).' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'fetch', message: 'Network calls belong in worker/.' },
        { object: 'globalThis', property: 'fetch', message: 'Network calls belong in worker/.' },
        { object: 'window', property: 'indexedDB', message: 'Storage belongs in worker/.' },
        { object: 'window', property: 'EventSource', message: 'Streams belong in worker/.' },
      ],
    },
  },
  {
    files: ['worker/**/*.ts'],
    rules: layer(['server', 'src'], 'worker/ imports contract/ only; never server/ or src/.'),
  },
  {
    files: ['server/**/*.ts'],
    rules: layer(['worker', 'src'], 'server/ imports contract/ only; never worker/ or src/.'),
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|zod/|stemmer$|\\./)',
              message: 'contract/ imports only zod and stemmer (and its own files).',
            },
          ],
        },
      ],
    },
  },
);
