import { decisionHandler } from './decision';

export const handler = decisionHandler('rejectQualificationAward', 'rejected');
