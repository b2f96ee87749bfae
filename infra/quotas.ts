/**
 * The limits the stack is held to, below AWS's own: CloudFormation takes 500 resources in a stack (areas
 * are nested stacks: split further before a stack reaches 450); an HTTP API takes 300 routes (raisable)
 * and 300 integrations (not raisable). Held at half, so twice today's routes still fit.
 */
export const QUOTAS = { resourcesPerStack: 450, routes: 150, integrations: 60 } as const;
