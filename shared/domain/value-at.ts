/**
 * The value at a dotted path of a record (`attributes.checks.outcome`), or undefined: what a collection's
 * filter and sort read, and what a notification rule's condition and templates read of a subject.
 */
export const valueAt = (record: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (value, name) =>
        value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined,
      record,
    );
