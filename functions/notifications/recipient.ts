/**
 * A recipient as found: the user, and the address their mail goes to, read with the user's record when
 * recipient resolution found them, so mailing them reads nothing again.
 */
import type { StoredResource } from '#shared/data/stored-resource';

export interface Recipient {
  id: string;
  /** Their e-mail address; null for a user without one (their mail is recorded as failed). */
  email: string | null;
}

export const recipientOf = (user: Pick<StoredResource, 'id' | 'attributes'>): Recipient => ({
  id: user.id,
  email:
    typeof user.attributes.email === 'string' && user.attributes.email !== '' ? user.attributes.email : null,
});
