/**
 * Where a scheme's (and a work order's) progress counters are kept (`progress.ts` reads and moves them).
 * Apart so the schemes' declaration names the key it reads with each scheme (`derivedKeys`) without
 * loading the counters' reads and writes into every function's start-up.
 */
import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import { tenantPattern } from '#shared/data/stored-resource';

const keys = /* @__PURE__ */ declareAccessPatterns('projects/progress', {
  progress: {
    ...tenantPattern('progress', '{id}'),
    about: "a scheme's progress (its work orders' and operations' counts), read with the scheme",
  },
});
export const progressKey = (orgId: string, id: string) => keyFrom(keys.progress, { org_id: orgId, id });
