import type { FastifyInstance } from 'fastify';
import {
  type AccountState,
  accountDeletion,
  type EmailChanged,
  type EmailChangeRequested,
  emailChangeConfirmation,
  emailChangeRequest,
  type MemberTwoFactorList,
  nameChange,
} from '../../contracts/account.js';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import { teamParams } from '../../contracts/params.js';
import { OWNER } from '../../contracts/roles.js';
import { AppError } from '../../errors.js';
import { deleteAccount } from '../../management/accountDeletion.js';
import { confirmEmailChange, requestEmailChange } from '../../management/emailChange.js';
import { parsePayload } from '../../management/payload.js';
import { confirmPassword } from '../../management/reauthentication.js';
import { recoveryCodesLeft, twoFactorEnabled } from '../../management/twoFactor.js';
import { pendingEmailChange } from '../../stores/meta/accountTokens.js';
import { listTeamMembers } from '../../stores/meta/guests.js';
import { usersWithTwoFactor } from '../../stores/meta/twoFactor.js';
import { getUserProfile, setUserName } from '../../stores/meta/users.js';
import { clearSessionCookie, requireViewer, signedOut, type WebDeps } from '../signIn.js';
import { requireTeamRole } from '../siteAccess.js';

const mailNeeded = () =>
  new AppError(
    409,
    'mail_not_set_up',
    'This server does not send email (SMTP_URL is not set), so a new address cannot be confirmed. Whoever runs the server can set SMTP_URL and restart it.',
  );

/** The Account page's name, email and two-factor state; changing the name and the address; deleting the account. */
export function profileRoutes(scope: FastifyInstance, deps: WebDeps): void {
  const me = async (userId: number) => {
    const user = await getUserProfile(deps.db, userId);
    if (!user) throw signedOut();
    return user;
  };

  scope.get('/app/api/account', async (request): Promise<AccountState> => {
    const user = await me(requireViewer(request).userId);
    const enabled = await twoFactorEnabled(deps.db, user.id);
    return {
      name: user.name,
      email: user.email,
      pending_email: await pendingEmailChange(deps.db, user.id, deps.clock.now()),
      two_factor: { enabled, recovery_codes_left: enabled ? await recoveryCodesLeft(deps.db, user.id) : 0 },
    };
  });

  scope.post('/app/api/account/name', async (request): Promise<Acknowledgement<'changed'>> => {
    const body = parsePayload(nameChange, request.body);
    await setUserName(deps.db, requireViewer(request).userId, body.name);
    return { changed: true };
  });

  // Both emails are awaited: the person is changing their own address and should hear if the mail server refused.
  scope.post('/app/api/account/email', async (request): Promise<EmailChangeRequested> => {
    const body = parsePayload(emailChangeRequest, request.body);
    const mailer = deps.mailer;
    if (mailer === null) throw mailNeeded();
    const viewer = requireViewer(request);
    const mails = await requestEmailChange(deps.db, { userId: viewer.userId, ...body, baseUrl: deps.baseUrl }, deps.clock.now());
    try {
      await mailer.send(mails.confirmation);
    } catch {
      throw new AppError(502, 'mail_failed', 'The mail server refused the confirmation email; try again later (your address is unchanged).');
    }
    await mailer.send(mails.notice).catch((error: unknown) => request.log.warn({ err: error }, 'could not tell the old address of an email change'));
    return { pending_email: mails.confirmation.to[0] ?? body.email };
  });

  scope.post('/app/api/account/email/confirm', async (request): Promise<EmailChanged> => {
    const body = parsePayload(emailChangeConfirmation, request.body);
    return confirmEmailChange(deps.db, body.token, deps.clock.now());
  });

  scope.post('/app/api/account/delete', async (request, reply): Promise<Acknowledgement<'deleted'>> => {
    const body = parsePayload(accountDeletion, request.body);
    const viewer = requireViewer(request);
    await confirmPassword(deps.db, viewer.userId, body.password);
    await deleteAccount(deps.db, viewer.userId);
    clearSessionCookie(reply, deps);
    return { deleted: true };
  });

  // Team settings › Members marks who has two-factor sign-in on, for the owner only.
  scope.get('/app/api/teams/:team/members/two-factor', async (request): Promise<MemberTwoFactorList> => {
    const { team } = parsePayload(teamParams, request.params);
    await requireTeamRole(deps.db, requireViewer(request), team, [OWNER], 'see which members have two-factor sign-in on');
    const members = await listTeamMembers(deps.db, team);
    const on = await usersWithTwoFactor(
      deps.db,
      members.map((member) => member.userId),
    );
    return { members: members.map((member) => ({ email: member.email, two_factor: on.has(member.userId) })) };
  });
}
