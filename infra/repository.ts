import { resolve } from 'node:path';

/** The repository's root: handler paths, served files and the docs folder are relative to it. */
export const REPOSITORY_ROOT = resolve(import.meta.dirname, '..');
