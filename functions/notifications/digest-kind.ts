/**
 * The due-work kind that mails a digest window (`notification-digest`), due at the window's end: the window
 * item in the user's inbox partition carries its due keys (`digest-lines.ts`). Apart from its work so the
 * manifest, which every function reads, names it without loading it.
 */
import { dueWorkKind } from '#shared/engine/due-work-kind';

export const DIGEST = dueWorkKind('notification-digest', {
  module: 'functions/notifications/digest-run.ts',
  run: 'sendDigest',
});
