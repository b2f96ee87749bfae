import { defineArea } from '#shared/engine/area';
import { migration } from '#shared/engine/migration-declarations';
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
  migrations: [
    // 16 once migrations 14 and 15 land: the runner refuses a gap.
    migration(16, 'award-filter-index', {
      module: 'functions/qualifications/migrations/award-filter-index.ts',
      step: 'awardFilterIndex',
    }),
    migration(32, 'qualification-type-filter-index', {
      module: 'functions/qualifications/migrations/qualification-type-filter-index.ts',
      step: 'qualificationTypeFilterIndex',
    }),
  ],
  // Which of its events notify whom by default (issue 43; organisations override them per rule id): the
  // award's person and whoever may approve awards, as a competence lapses.
  notificationRules: [
    {
      id: 'qualification-award-expiring',
      event: 'qualification-award.expiring',
      category: 'people',
      severity: 'warning',
      recipients: [{ relationship: 'person' }, { permission: 'qualifications:approve' }],
      title: 'Qualification expiring',
      body: 'A qualification award expires on {attributes.expires_at}.',
      generic: { title: 'Qualification expiring', body: 'A qualification award is about to expire.' },
    },
    {
      id: 'qualification-award-expired',
      event: 'qualification-award.expired',
      category: 'people',
      severity: 'critical',
      recipients: [{ relationship: 'person' }, { permission: 'qualifications:approve' }],
      title: 'Qualification expired',
      body: 'A qualification award expired on {attributes.expires_at}.',
      generic: { title: 'Qualification expired', body: 'A qualification award has expired.' },
    },
  ],
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
