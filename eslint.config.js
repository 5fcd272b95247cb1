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
      // One program, the root tsconfig's (every file under src/, test/, bench/ and scripts/): the project service
      // would build another for each folder of src/ with a tsconfig of its own, the same files again (some 40 s
      // of CPU a run). Those tsconfigs' lib and types are the type checks' business (`npm run typecheck`); the
      // rules here ask only what a value's type is.
      parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname },
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
