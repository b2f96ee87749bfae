/** The site-attendances area's work due later: an open attendance's sign-out at its site's closing time. */
import { dueWorkKind } from '../due-work/kinds';

export const AUTO_SIGN_OUT = dueWorkKind('site-attendance-closing', {
  module: 'shared/resources/site-attendances/sign-out.ts',
  run: 'signOutAtClosing',
});
