/**
 * A cost sheet's moves (pure): a quote is approved by someone other than whoever made the sheet, so no
 * one sets the price they are then held to.
 */

/** Why `approver` may not approve a sheet made by `creator` (four eyes), or null. */
export const approverRefusal = (creator: string | null, approver: string): string | null =>
  creator !== null && creator === approver
    ? 'Nobody approves their own cost sheet: another holder of costs:manage approves it.'
    : null;
