/**
 * A subscription's rules: which events it receives, and the URL forms it accepts. Pure; the addresses a
 * host name resolves to are judged again at every attempt (`addresses.ts`).
 */
import { type AddressVerdict, addressRange, judgeAddress } from '#shared/domain/webhook-addresses';

/** `event_types: ["*"]` subscribes to every event the organisation emits, names added later included. */
export const ALL_EVENTS = '*';

export const receives = (eventTypes: readonly string[], name: string): boolean =>
  eventTypes.includes(ALL_EVENTS) || eventTypes.includes(name);

/** Host names that always mean this machine, whatever DNS says. */
const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain']);

/**
 * Whether a URL may be subscribed: https, or http to loopback only (and loopback at all only when
 * allowed); no credentials in it; a literal IP must be a public one (or allowed loopback). A name is
 * accepted here and resolved at delivery.
 */
export const judgeUrl = (text: string, allowLoopback: boolean): AddressVerdict => {
  if (!URL.canParse(text)) return { allowed: false, reason: 'Not an absolute URL.' };
  const url = new URL(text);
  if (url.username || url.password)
    return { allowed: false, reason: 'A webhook URL carries no credentials.' };
  const host = url.hostname.toLowerCase();
  const literal = addressRange(host) !== null;
  const loopback =
    LOOPBACK_NAMES.has(host) || host.endsWith('.localhost') || (literal && addressRange(host) === 'loopback');
  if (loopback && !allowLoopback)
    return { allowed: false, reason: `${host} is a loopback address, not a public one` };
  if (url.protocol === 'http:' && !loopback)
    return { allowed: false, reason: 'Webhook URLs use https (http only to loopback, in the local stack).' };
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { allowed: false, reason: 'Webhook URLs use https.' };
  return literal ? judgeAddress(host, allowLoopback) : { allowed: true };
};
