// Lint with type information (typescript-eslint): promises that are neither awaited nor handled, and promises
// passed where a callback's result is ignored, are errors. Formatting is prettier's job (.prettierrc.json).
// In src/, no import cycle (import-x/no-cycle; type-only imports erase at compile time and do not count), and
// every relative import must resolve (import-x/no-unresolved), so the cycle check cannot pass by not finding a
// file: the TypeScript resolver follows our `./x.ts` imports and the packages' types.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  { ignores: ['dist/', 'public/build/', 'node_modules/', 'data/', 'test-results/', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }], // a `let` a callback reads before its one assignment
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Imported modules are parsed as TypeScript; with the default parser they would not parse, and a cycle
      // through them would go unseen.
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-unresolved': 'error',
    },
  },
);
