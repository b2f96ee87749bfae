/**
 * Site attendance and qualifications for one demo organisation, through the same write functions the API
 * uses: a depot with its own induction, a CSCS card and first aid as qualification types, a specification
 * the depot requires, awards (approved, and one pending approval), and two people on site now.
 * Answers the first approved award and the first attendance: the demo inbox's envelopes are about them.
 */

import { locations } from '#functions/places/definitions';
import { createAward } from '#functions/qualifications/awards';
import {
  qualificationAwards,
  qualificationSpecifications,
  qualificationTypes,
} from '#functions/qualifications/definitions';
import { siteSettings } from '#functions/site-attendances/definitions';
import { signIn } from '#functions/site-attendances/sign-in-writes';
import type { Principal } from '#shared/auth/principal';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { declaredCrud } from '#shared/engine/simple-crud';
import { moveRecord } from '#shared/engine/transition';

const rel = (type: string, id: string) => ({ data: { type, id } });

export interface DemoSiteSubjects {
  award: StoredResource | null;
  attendance: StoredResource | null;
}

export const loadDemoSites = async (
  orgId: string,
  prefix: string,
  people: StoredResource[],
): Promise<DemoSiteSubjects> => {
  const scope = scopeOf([orgId]);
  const create = async (definition: Parameters<typeof declaredCrud>[0], body: object) =>
    (await (await declaredCrud(definition)).create(scope, orgId, body)).id;
  const depot = await create(locations, {
    data: {
      type: 'locations',
      attributes: { name: `${prefix} central depot`, reference: `${prefix}-DEPOT` },
    },
  });
  const type = (attributes: object, relationships?: object) =>
    create(qualificationTypes, { data: { type: 'qualification-types', attributes, relationships } });
  const induction = await type(
    {
      kind: 'induction',
      name: 'Central depot induction',
      code: 'IND-DEPOT',
      has_expiry: true,
      validity_period: 'P1Y',
    },
    { locations: { data: [{ type: 'locations', id: depot }] } },
  );
  const cscs = await type({
    kind: 'registration',
    name: 'CSCS card',
    code: 'CSCS',
    has_expiry: true,
    validity_period: 'P5Y',
  });
  const firstAid = await type({
    kind: 'training',
    name: 'First aid at work',
    code: 'FAW',
    has_expiry: true,
    validity_period: 'P3Y',
  });
  const specification = await create(qualificationSpecifications, {
    data: {
      type: 'qualification-specifications',
      attributes: {
        name: 'Depot operative',
        code: 'DEPOT-OP',
        rule: {
          all_of: [
            { qualification_type: cscs },
            { any_of: [{ qualification_type: firstAid }, { qualification_type: induction }] },
          ],
        },
      },
    },
  });
  await create(siteSettings, {
    data: {
      type: 'site-settings',
      attributes: { closing_time: '18:00', missing_qualification: 'warn' },
      relationships: {
        location: rel('locations', depot),
        required_specification: rel('qualification-specifications', specification),
      },
    },
  });
  const [lead, ...others] = people;
  // The lead approves awards and signs people in, holding what that needs (as the demo's admin does).
  const held = new Set(['qualifications:approve', 'site-attendances:manage'] as const);
  const approver: Principal | null = lead
    ? { id: lead.id, kind: 'user', name: 'Demo lead', permissions: new Map([[orgId, held]]), teams: {} }
    : null;
  const award = async (person: StoredResource, typeId: string, number: string, approve = true) => {
    const made = await createAward(
      scope,
      orgId,
      {
        data: {
          type: 'qualification-awards',
          attributes: { issued_at: '2026-03-02', number },
          relationships: {
            person: rel('users', person.id),
            qualification_type: rel('qualification-types', typeId),
          },
        },
      },
      approver,
    );
    if (approve) await moveRecord(scope, qualificationAwards, made, 'approve', { principal: approver });
    return made;
  };
  let firstAward: StoredResource | null = null;
  for (const [i, person] of others.slice(0, 3).entries()) {
    const made = await award(person, induction, `${prefix}-IND-${i + 1}`);
    firstAward ??= made;
    await award(person, cscs, `0${i + 1}234567${i}`, i < 2);
  }
  if (!approver) return { award: firstAward, attendance: null };
  let attendance: StoredResource | null = null;
  for (const person of others.slice(0, 2)) {
    const signedIn = await signIn(
      { scope, orgId, principal: approver },
      {
        data: {
          type: 'site-attendances',
          attributes: { method_in: 'kiosk' },
          relationships: { person: rel('users', person.id), location: rel('locations', depot) },
        },
      },
    );
    attendance ??= signedIn;
  }
  return { award: firstAward, attendance };
};
