// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-plugin-prettier/recommended';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { domainImports } from './lint/domain-imports.js';

/** The architecture's import lines (shared/ARCHITECTURE.md): who may import whom. */
const layer = (/** @type {string[]} */ forbidden, /** @type {string} */ why) => ({
  'no-restricted-imports': [
    'error',
    { patterns: forbidden.map((dir) => ({ group: [`**/${dir}`, `**/${dir}/**`], message: why })) },
  ],
});

/**
 * The folders of server/ in import order, declared once: each imports only folders before it,
 * and only through their index.ts (lint/domain-imports.js), so the domains form a graph
 * without cycles. db/ and http/ are core, below every domain; of server/'s own files only the
 * composition ones import domains. A new folder takes its place after what it imports.
 */
const SERVER_DOMAIN_ORDER = [
  'sync',
  'auth',
  'user',
  'notifications',
  'health',
  'telemetry',
  'storage',
  'extract',
  'documents',
  'ingest',
  'catalogue',
  'boards',
  'search',
  'content',
  'sources',
  'uploads',
  'demo',
  'summaries',
  'assistant',
  'tags',
  'people',
  'notebooks',
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-server',
      'data',
      'node_modules',
      'test-results',
      'playwright-report',
      '.tmp',
    ],
  },
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
    // tsc already reports unused names in TypeScript (noUnusedLocals, noUnusedParameters); the
    // rule repeated it for a sixth of lint's time. JavaScript files keep it.
    files: ['**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-unused-vars': 'off' },
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
    // State sits below the features (they read it); it never imports one. Repeats src/'s lines:
    // a later no-restricted-imports replaces the earlier one for these files.
    files: ['src/state/**/*.{ts,tsx}'],
    rules: layer(
      ['worker', 'server', 'features'],
      'src/state/ imports contract/, src/lib/ and the workspace client: never a feature, worker/ or server/.',
    ),
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
    files: ['server/**/*.ts'],
    plugins: { domains: domainImports },
    rules: {
      'domains/server-domains': [
        'error',
        {
          order: SERVER_DOMAIN_ORDER,
          core: ['db', 'http'],
          composition: ['app', 'config', 'domains', 'start', 'main'],
        },
      ],
    },
  },
  {
    files: ['src/features/**/*.{ts,tsx}'],
    plugins: { domains: domainImports },
    rules: { 'domains/feature-index': 'error' },
  },
  {
    // worker/domains/<domain>/ for a domain of more than two files (boards, assistant, search).
    files: ['worker/domains/**/*.ts'],
    plugins: { domains: domainImports },
    rules: { 'domains/worker-domain-index': 'error' },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|zod/|stemmer$|eventsource-parser/stream$|\\./)',
              message:
                'contract/ imports only zod, stemmer and eventsource-parser/stream (and its own files).',
            },
          ],
        },
      ],
    },
  },
);
