/**
 * Request examples: each area's `examples.ts` gives a body for every write route it serves, as a function
 * of an organisation's record ids. Tests send them (the every-record builder, so each is known to be
 * accepted), the bench seeds from them, and the OpenAPI document shows them, so what the tests send is
 * what the docs show. The manifest names the module by path, as routes name handlers: no bundle loads it.
 */

/** Record ids by path-parameter name (`scheme_id`), and a few by role (`person`, `outsider`, `reference`). */
export type Ids = Readonly<Record<string, string>>;

/** A request body naming the records in `ids`; `now` for what must be recent when it is sent. */
export type RequestExample = (ids: Ids, now: Date) => object;

/** An area's write routes by id: the body each takes, or `null` for one that takes none. */
export type RequestExamples = Readonly<Record<string, RequestExample | null>>;

/** A to-one relationship's document. */
export const one = (type: string, id: string | undefined) => ({ data: { type, id } });

/** A to-many relationship's document. */
export const many = (type: string, ids: readonly (string | undefined)[]) => ({
  data: ids.map((id) => ({ type, id })),
});
