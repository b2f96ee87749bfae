/** A body for each of the qualifications area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { many, one, type RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createQualificationType: (i) => ({
    data: {
      type: 'qualification-types',
      attributes: { kind: 'induction', name: 'Depot induction', has_expiry: true, validity_period: 'P1Y' },
      relationships: { locations: many('locations', [i.location_id]) },
    },
  }),
  updateQualificationType: (i) => ({
    data: {
      type: 'qualification-types',
      id: i.qualification_type_id,
      attributes: { description: 'Gate, welfare, muster point.' },
    },
  }),
  createQualificationAward: (i, now) => ({
    data: {
      type: 'qualification-awards',
      attributes: { issued_at: now.toISOString().slice(0, 10), number: 'IND-1' },
      relationships: {
        person: one('users', i.person),
        qualification_type: one('qualification-types', i.qualification_type_id),
      },
    },
  }),
  updateQualificationAward: (i) => ({
    data: {
      type: 'qualification-awards',
      id: i.qualification_award_id,
      attributes: { notes: 'Inducted by the site manager.' },
    },
  }),
  createQualificationSpecification: (i) => ({
    data: {
      type: 'qualification-specifications',
      attributes: {
        name: 'Depot access',
        rule: { all_of: [{ qualification_type: i.qualification_type_id }] },
      },
    },
  }),
  updateQualificationSpecification: (i) => ({
    data: {
      type: 'qualification-specifications',
      id: i.qualification_specification_id,
      attributes: { name: 'Depot entry' },
    },
  }),
  approveQualificationAward: null,
  rejectQualificationAward: null,
  revokeQualificationAward: null,
};
