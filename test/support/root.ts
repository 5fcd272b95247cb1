/** The checkout's root folder, for tests that run its files or read them (nothing else imported, so any test may use it). */
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
