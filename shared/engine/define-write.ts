/**
 * A bespoke write declared as data plus functions, as a Medusa route runs a named workflow of steps: the
 * request document it parses (zod), the facts it reads, a pure decision (the area's `rules/`) and the ops
 * it commits in one transaction. Each part is one function of what came before, so a write reads top to
 * bottom and its decision is tested without a table.
 */
import type * as z from 'zod';
import type { Principal } from '../auth/principal';
import type { Scope } from '../data/scope';
import type { WriteOp, WriteRefused } from '../data/transaction';
import { parseDocument } from '../jsonapi/request-document';
import type { Check } from './declaration';
import { commitChecked } from './record-writes';

/**
 * Who asks for the write, where and when: what each part is given, with the parsed document. A write may
 * take more (the record its path names, read by its handler: `WriteRequest & { attendance: … }`).
 */
export interface WriteRequest {
  scope: Scope;
  orgId: string;
  /** The caller (a write that needs one asks for `WriteRequest & { principal: Principal }`). */
  principal: Principal | null;
  now: Date;
}

/** What one write commits: its ops, the checks of what it names (a 400 at the pointer), what a refusal means. */
export interface WriteCommit {
  ops: WriteOp[];
  checks?: Check[];
  refused?: (error: WriteRefused) => never;
}

export interface WriteDeclaration<Document, Facts, Decision, Answer, Request extends WriteRequest> {
  document: z.ZodType<Document>;
  /**
   * What the decision needs, read before it (a request naming what cannot be read is refused here). None
   * where the transaction's own conditions prove what the write names (a team's members, by their links).
   */
  facts?: (request: Request, document: Document) => Promise<Facts>;
  /** Pure: what to write, or a refusal thrown (a 4xx). */
  decide: (request: Request, document: Document, facts: Facts) => Decision;
  /** The ops that carry the decision out, committed together. */
  ops: (request: Request, decision: Decision) => WriteCommit;
  /** What the write answers with, once committed. */
  answer: (decision: Decision) => Answer;
}

/** The write as one function of its request and body: parse → facts → decide → ops → commit → answer. */
export const defineWrite =
  <Document, Facts, Decision, Answer, Request extends WriteRequest = WriteRequest>(
    write: WriteDeclaration<Document, Facts, Decision, Answer, Request>,
  ) =>
  async (request: Omit<Request, 'now'> & { now?: Date }, body: unknown): Promise<Answer> => {
    const at = { ...request, now: request.now ?? new Date() } as Request;
    const document = parseDocument(write.document, body);
    const facts = write.facts ? await write.facts(at, document) : (undefined as Facts);
    const decision = write.decide(at, document, facts);
    const { ops, checks = [], refused } = write.ops(at, decision);
    await commitChecked(at.scope, ops, checks, refused);
    return write.answer(decision);
  };
