/**
 * The schema builders (`schema-builders.ts`: zod and the house's types), loaded on first use: a
 * declaration's `writes` and `served` await them, so a module that only declares loads no zod.
 */
export const loadSchemaBuilders = () => import('./schema-builders');
