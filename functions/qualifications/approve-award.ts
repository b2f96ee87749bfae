import { decisionHandler } from './decision';

export const handler = decisionHandler('approveQualificationAward', 'approved');
