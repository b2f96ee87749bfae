import { decisionHandler } from './decision';

export const handler = decisionHandler('revokeQualificationAward', 'revoked');
