// Lint rules, including the one-way imports of ARCHITECTURE.md section 3.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const forbid = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      '.data',
      'coverage',
      'playwright-report',
      'test-results',
      'visualizations',
      'src/server/db/migrations',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...forbid(['**/server/**', '**/server'], 'The web app talks to the server only through src/client.'),
    },
  },
  {
    files: ['machines/**/*.ts'],
    rules: forbid(
      ['react', 'react-dom', 'react/*', '@xstate/react', 'ky', '**/src/client/**', '**/src/server/**', '**/src/web/**'],
      'Machines are pure: xstate, src/contract and src/domain only.',
    ),
  },
  {
    files: ['src/server/**/*.ts'],
    rules: forbid(
      ['**/web/**', '**/machines/**', '**/client/**', 'react', 'react-dom'],
      'The server imports only src/domain and src/contract.',
    ),
  },
  {
    files: ['src/client/**/*.ts'],
    rules: forbid(['**/web/**', '**/server/**', '**/machines/**', 'react'], 'The client depends on src/contract only.'),
  },
  {
    files: ['src/contract/**/*.ts', 'src/domain/**/*.ts'],
    rules: forbid(
      ['**/web/**', '**/server/**', '**/machines/**', '**/client/**', 'react', 'xstate'],
      'Contract and domain are the bottom layer.',
    ),
  },
);
