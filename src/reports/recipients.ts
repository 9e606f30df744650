import type { EmailTopic } from '../contracts/emailReports.js';
import { badRequest } from '../errors.js';
import { parseEmail } from '../management/invitations.js';
import type { MetaDb } from '../stores/meta/database.js';
import { addRecipient, recipientsOf } from '../stores/meta/emailRecipients.js';

/** More addresses than any team reads a report at; a list is not a mailing list. */
export const MAX_RECIPIENTS = 50;

/** An editor adds an address to one of a site's lists: trimmed, lower-cased, at most MAX_RECIPIENTS per list. */
export async function addSiteRecipient(db: MetaDb, siteId: number, topic: EmailTopic, input: string, now: number): Promise<string> {
  const email = parseEmail(input).toLowerCase();
  const current = await recipientsOf(db, siteId, topic);
  if (current.includes(email)) return email;
  if (current.length >= MAX_RECIPIENTS) throw badRequest('too_many_recipients', `A list holds at most ${MAX_RECIPIENTS} addresses; remove one first.`);
  await addRecipient(db, siteId, topic, email, now);
  return email;
}
