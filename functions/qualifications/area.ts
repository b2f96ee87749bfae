import { defineArea } from '#shared/engine/area';
import {
  qualificationAwards,
  qualificationEvaluations,
  qualificationSpecifications,
  qualificationTypes,
} from './definitions';
import { EXPIRY_WARNING } from './due-work';

export const area = defineArea('qualifications', {
  tag: 'Qualifications',
  feature: { description: 'Qualifications, their awards and expiry warnings.' },
  permissions: {
    'qualifications:view':
      'See qualification types, people’s awards and specifications, and evaluate people against them.',
    'qualifications:manage':
      'Create, change and delete qualification types and specifications, record awards (pending approval) and revoke them.',
    'qualifications:approve': 'Approve or reject awards pending approval, having checked their evidence.',
  },
  resources: [qualificationTypes, qualificationAwards, qualificationSpecifications, qualificationEvaluations],
  dueWork: [EXPIRY_WARNING],
  routes: [
    {
      id: 'evaluateQualificationSpecification',
      method: 'GET',
      path: '/v3/qualification-specifications/{qualification_specification_id}/evaluation',
      handler: 'functions/qualifications/evaluate-specification.ts',
      answers: { status: 200, collection: 'qualification-evaluations' },
      permission: 'qualifications:view',
    },
  ],
});
