import { randomBytes } from 'node:crypto';
import { hashPassword } from '../accounts/passwords.js';
import type * as contract from '../contracts/sharedLinks.js';
import { badRequest } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import { findSharedLinkByName, insertSharedLink, type SharedLink } from '../stores/meta/sharedLinks.js';

export const MIN_SHARED_LINK_PASSWORD = 8;

/** 128 random bits: the slug is the only thing guarding a link without a password. */
const newSlug = () => randomBytes(16).toString('base64url');

/**
 * Find-or-create by name, as Plausible does. An existing link is answered unchanged, password
 * included: changing a password means deleting the link (which also retires its URL).
 */
export async function findOrCreateSharedLink(
  db: MetaDb,
  input: { siteId: number; name: string; password?: string | undefined },
  now: number,
): Promise<{ link: SharedLink; created: boolean }> {
  const name = input.name.trim();
  if (name.length === 0) throw badRequest('invalid_shared_link', 'Field "name" must not be blank.');
  const existing = await findSharedLinkByName(db, input.siteId, name);
  if (existing) return { link: existing, created: false };
  if (input.password !== undefined && input.password.length < MIN_SHARED_LINK_PASSWORD) {
    throw badRequest('invalid_shared_link', `A shared link's password must be at least ${MIN_SHARED_LINK_PASSWORD} characters long.`);
  }
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  return { link: await insertSharedLink(db, { siteId: input.siteId, name, slug: newSlug(), passwordHash }, now), created: true };
}

/** The public, read-only dashboard address (served by the web app). */
export function sharedLinkUrl(baseUrl: string, domain: string, link: SharedLink): string {
  return `${baseUrl}/share/${encodeURIComponent(domain)}?auth=${link.slug}`;
}

export function sharedLinkJson(baseUrl: string, domain: string, link: SharedLink): contract.SharedLink {
  return { name: link.name, url: sharedLinkUrl(baseUrl, domain, link), password_protected: link.passwordHash !== null };
}
