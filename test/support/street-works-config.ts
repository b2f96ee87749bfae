/** The street-works configuration the API tests run under (see local-env.ts). */
export const STREET_WORKS_TOPICS = [
  'arn:aws:sns:eu-west-2:123456789012:street-works-permits',
  'arn:aws-cn:sns:cn-north-1:123456789012:street-works-permits',
] as const;

/** Works-reference prefixes → organisation ids; the longest matching prefix wins. */
export const STREET_WORKS_ORGS = {
  TW: '01900000-0000-7000-8000-0000000000a1',
  TWX: '01900000-0000-7000-8000-0000000000a2',
} as const;
