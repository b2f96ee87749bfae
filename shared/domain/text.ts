/** Rules for text that every layer applies the same way. Pure. */

/**
 * Whether `text` holds a control character (C0, DEL or C1) other than those in `allowed`: such
 * characters have no place in names, keys, file names or headers, and break what prints them.
 */
export const hasControlCharacter = (text: string, allowed = ''): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 || (code >= 0x7f && code <= 0x9f)) && !allowed.includes(text.charAt(i))) return true;
  }
  return false;
};
