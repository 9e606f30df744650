import type { Mail } from '../mail/mailer.js';

/**
 * The emails of an account: a password reset, an email change (the link to the new address, the
 * notice to the old one) and an invitation. Plain text: each carries one link, which any mail
 * client shows and any terminal copies. Times are written in UTC, as a server knows no reader's zone.
 */
const PRODUCT = 'svc analytics';

const utc = (epochMs: number) => `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function passwordResetMail(input: { to: string; link: string; expiresAt: number; baseUrl: string }): Mail {
  return {
    to: [input.to],
    subject: `Choose a new password for ${PRODUCT}`,
    text: [
      `Someone, hopefully you, asked to choose a new password for the account ${input.to} at ${input.baseUrl}.`,
      '',
      `Choose it here (the link works once, until ${utc(input.expiresAt)}):`,
      input.link,
      '',
      'Choosing a new password signs the account out everywhere.',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}

export function emailChangeMail(input: { to: string; from: string; link: string; expiresAt: number }): Mail {
  return {
    to: [input.to],
    subject: `Confirm your new email address for ${PRODUCT}`,
    text: [
      `The ${PRODUCT} account ${input.from} asked to use this address, ${input.to}, from now on.`,
      '',
      `Confirm it here (the link works once, until ${utc(input.expiresAt)}):`,
      input.link,
      '',
      'Until then the account keeps its old address. If you did not ask for this, ignore this email.',
    ].join('\n'),
  };
}

export function emailChangeNotice(input: { to: string; newEmail: string; baseUrl: string }): Mail {
  return {
    to: [input.to],
    subject: `Your ${PRODUCT} email address is being changed`,
    text: [
      `Someone signed in to your ${PRODUCT} account asked to change its address from ${input.to} to ${input.newEmail}.`,
      `It changes when the link sent to ${input.newEmail} is opened.`,
      '',
      `If this was not you, sign in, change your password and sign out your other sessions at ${input.baseUrl}/settings/account`,
      `(if you cannot sign in, choose a new password from ${input.baseUrl}/password-reset).`,
    ].join('\n'),
  };
}

export function invitationMail(input: { to: string; inviter: string; team: string; site: string | null; role: string; link: string; expiresAt: number }): Mail {
  const what = input.site === null ? `the team ${input.team}` : `the site ${input.site} (team ${input.team})`;
  return {
    to: [input.to],
    subject: `${input.inviter} invited you to ${input.site ?? input.team} on ${PRODUCT}`,
    text: [
      `${input.inviter} invited you to ${what} on ${PRODUCT}, with the role ${input.role}.`,
      '',
      `Accept here (until ${utc(input.expiresAt)}); without an account yet, you choose a password there:`,
      input.link,
      '',
      'If you did not expect this invitation, ignore this email.',
    ].join('\n'),
  };
}
