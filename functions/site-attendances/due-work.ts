/** The site-attendances area's work due later: an open attendance's sign-out at its site's closing time. */
import { dueWorkKind } from '#shared/engine/due-work-kind';

export const AUTO_SIGN_OUT = dueWorkKind('site-attendance-closing', {
  module: 'functions/site-attendances/closing-time.ts',
  run: 'signOutAtClosing',
});
