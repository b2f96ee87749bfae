import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
import {
  costLines,
  costRollupAttributes,
  costSheets,
  rateCodes,
  rateCodeVersionAttributes,
} from './definitions';

export const area = defineArea('costs', {
  tag: 'Costs',
  feature: { description: 'The cost register: rate codes, their versions and cost sheets.' },
  permissions: {
    'costs:view': 'See rate codes and their versions, and cost sheets.',
    'costs:manage': 'Create rate codes, add rate versions, and create and change cost sheets and lines.',
    'cost-lines:view': 'See cost lines and the cost roll-ups computed from them.',
  },
  migrations: [
    migration(14, 'work-node-cost-sums', {
      module: 'functions/costs/migrations/cost-sums.ts',
      step: 'costSums',
    }),
    migration(22, 'cost-filter-index', {
      module: 'functions/costs/migrations/cost-filter-index.ts',
      step: 'costFilterIndex',
    }),
    migration(30, 'rate-code-filter-index', {
      module: 'functions/costs/migrations/rate-code-filter-index.ts',
      step: 'rateCodeFilterIndex',
    }),
  ],
  resources: [rateCodes, costSheets, costLines],
  answered: { 'rate-code-versions': rateCodeVersionAttributes, 'cost-rollups': costRollupAttributes },
  routes: [
    {
      id: 'listRateCodeVersions',
      method: 'GET',
      path: '/v3/orgs/{org_id}/costs/rate-codes/{rate_code_id}/versions',
      handler: 'functions/costs/list-rate-code-versions.ts',
      answers: { status: 200, collection: 'rate-code-versions' },
      permission: 'costs:view',
    },
    {
      id: 'createRateCodeVersion',
      method: 'POST',
      path: '/v3/orgs/{org_id}/costs/rate-codes/{rate_code_id}/versions',
      handler: 'functions/costs/create-rate-code-version.ts',
      answers: { status: 201, resource: 'rate-code-versions' },
      permission: 'costs:manage',
    },
    {
      id: 'getRateCodeVersion',
      method: 'GET',
      path: '/v3/orgs/{org_id}/costs/rate-codes/{rate_code_id}/versions/{rate_code_version_id}',
      handler: 'functions/costs/get-rate-code-version.ts',
      answers: { status: 200, resource: 'rate-code-versions' },
      permission: 'costs:view',
      query: [],
    },
    {
      id: 'createCostLine',
      method: 'POST',
      path: '/v3/orgs/{org_id}/costs/cost-sheets/{cost_sheet_id}/lines',
      handler: 'functions/costs/create-cost-line.ts',
      answers: { status: 201, resource: 'cost-lines' },
      permission: 'costs:manage',
    },
    {
      id: 'listCostRollups',
      method: 'GET',
      path: '/v3/cost-rollups',
      handler: 'functions/costs/list-cost-rollups.ts',
      answers: { status: 200, collection: 'cost-rollups' },
      // The node is named by filter, not path (404 when the caller cannot see it); a subtree whose lines
      // are in more than one currency has no one total (409).
      errors: [404, 409],
      permission: 'cost-lines:view',
    },
  ],
});
