/** The qualifications area's work due later: an approved award's expiry warnings (30, 7 and 0 days before). */
import { dueWorkKind } from '#shared/engine/due-work-kind';

export const EXPIRY_WARNING = dueWorkKind('qualification-award-expiry', {
  module: 'functions/qualifications/awards.ts',
  run: 'warnOfExpiry',
});
