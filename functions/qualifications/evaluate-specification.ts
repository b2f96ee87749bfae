import { listResourceObjects, without } from '#shared/engine/collection';
import { toResourceObject } from '#shared/engine/serialise';
import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { recordAhead } from '#shared/http/middlewares/authorisation';
import { qualificationEvaluations, qualificationSpecifications } from './definitions';
import { evaluateSpecification, evaluationParameters, parseEvaluationQuery } from './evaluation';

export const collectionOptions = {
  filters: { met: { kind: 'eq', path: 'attributes.met', type: 'boolean' } },
  sorts: { person: { path: 'id' } },
  defaultSort: 'person',
  includes: [],
} as const;

export { evaluationParameters as queryParameters };

/**
 * GET /v3/qualification-specifications/{id}/evaluation?filter[person]=…&filter[on]=…: per person, whether
 * they meet the specification that day, part by part, with the awards that prove each part.
 */
export const handler = jsonApiHandler(
  'evaluateQualificationSpecification',
  async (request) => {
    const specification = await readInScope(
      request.scope,
      qualificationSpecifications,
      request.params.qualification_specification_id,
    );
    const { people, on } = parseEvaluationQuery(request.query);
    const evaluations = await evaluateSpecification(request.scope, specification, people, on);
    return listResourceObjects(
      request,
      collectionOptions,
      evaluations.map((evaluation) =>
        toResourceObject(qualificationEvaluations, evaluation, request.baseUrl),
      ),
      without(request.query, Object.keys(evaluationParameters)),
    );
  },
  // The specification comes with the caller's credentials.
  recordAhead(qualificationSpecifications, 'qualification_specification_id'),
);
