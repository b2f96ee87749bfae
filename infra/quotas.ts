/**
 * The limits the stack is held to, below AWS's own: CloudFormation takes 500 resources in a stack (areas
 * are nested stacks: split further before a stack reaches 450); an HTTP API takes 300 routes (raisable)
 * and 300 integrations (not raisable). Twice today's routes still fit: integrations, the quota AWS will
 * not raise, held at a fifth; gateway routes at two thirds (issue 22: twice today's 300-odd routes is more
 * than the whole mission's 500, and leaves 100 of the default 300 spare before asking AWS for more).
 */
export const QUOTAS = { resourcesPerStack: 450, routes: 200, integrations: 60 } as const;
