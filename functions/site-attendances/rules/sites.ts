/** Which site a record is at (pure): an attendance and a site's settings name a scheme or a location. */

/** The site an attendance or a site's settings name: its scheme or its location. */
export const siteOf = (record: { rels: Readonly<Record<string, unknown>> }): string | null => {
  const { scheme, location } = record.rels;
  return typeof scheme === 'string' ? scheme : typeof location === 'string' ? location : null;
};
