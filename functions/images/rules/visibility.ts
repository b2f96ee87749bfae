/**
 * Who sees an image and its coordinates (pure). An image is seen by holders of `images:view` who may also
 * see its subject (the view permission of the subject's family: a vehicle's photo needs `assets:view`);
 * its coordinates, while `location_visibility` is `restricted`, only by holders of `images:view-original`.
 */

type Attributes = Record<string, unknown>;
/** What these rules read of a caller: the permissions held in each organisation. */
interface Holder {
  permissions: ReadonlyMap<string, { has(permission: never): boolean }>;
}
/** What these rules read of an image. */
interface Image {
  org_id: string;
  attributes: Attributes;
  rels: Record<string, unknown>;
}

/** Every serialisation of an image (answers, events, webhooks, exports) hides restricted coordinates. */
export const hiddenLocation = (attributes: Attributes): Attributes =>
  attributes.location_visibility === 'organisation' ? attributes : { ...attributes, location: null };

const holds = (principal: Holder | null | undefined, orgId: string, permission: string) =>
  principal?.permissions.get(orgId)?.has(permission as never) === true;

/** Whether the caller may see the original and every image's coordinates in the organisation. */
export const mayViewOriginal = (principal: Holder | null | undefined, orgId: string) =>
  holds(principal, orgId, 'images:view-original');

/** The stored coordinates, when this caller may see them (null otherwise, or when there are none). */
export const locationFor = (principal: Holder | null | undefined, image: Image) =>
  image.attributes.location_visibility === 'organisation' || mayViewOriginal(principal, image.org_id)
    ? (image.attributes.location ?? null)
    : null;

/**
 * Whether the caller may see the image's subject: the `<family>:view` of the type it names (`familyOf`), or
 * no subject at all. A subject type whose family is unknown is not seen.
 */
export const maySeeSubject = (
  principal: Holder | null | undefined,
  image: Image,
  familyOf: (type: string) => string | undefined,
) => {
  const named = image.rels.subject;
  if (typeof named !== 'string') return true;
  const family = familyOf(named.slice(0, named.indexOf(':')));
  return family !== undefined && holds(principal, image.org_id, `${family}:view`);
};
