/** The site-attendances area's work due later: an open attendance's sign-out at its site's closing time. */
import { dueWorkKind } from '../due-work/kinds';

export const AUTO_SIGN_OUT = dueWorkKind('site-attendance-closing', () =>
  import('./sign-out').then((module) => module.signOutAtClosing),
);
