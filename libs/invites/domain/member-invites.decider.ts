import { type Decider, type Decisions, decideBy, invalid } from '@app/platform/domain/decider';
import { isRole, type Role } from '@app/platform/domain/roles';

/** A member role, or null: the invitee becomes a guest. */
type InvitedRole = Role | null;

/**
 * The pending email invites of one organization: emails of people with no account yet, and the role each
 * gets once an account with that email exists. Emails compare without case.
 */
export type MemberInvitesState = {
  organization: string | null;
  pending: Record<string, { role: InvitedRole; sso: boolean }>;
};

/** The role an email will have, and whether as an SSO member. */
export interface EmailInvite {
  email: string;
  role: InvitedRole;
  sso?: boolean;
}

export type MemberInvitesEvent = {
  type: 'MemberInvited';
  data: { organization: string; email: string; role: InvitedRole; sso?: boolean; invitedAt: string };
};

export type MemberInvitesCommand = {
  type: 'InviteMembers';
  organization: string;
  invites: EmailInvite[];
  at: number;
};

/** An address: something, one `@`, a domain with a dot, no space or control character; GitBook's `Email`, loosely. */
export const EMAIL_PATTERN = /^[^\s@\p{Cc}]{1,64}@[^\s@.\p{Cc}]+(?:\.[^\s@.\p{Cc}]+)+$/u;
export const EMAIL_MAX = 320;

/** What each command decides. */
const decisions: Decisions<MemberInvitesCommand, MemberInvitesEvent, MemberInvitesState> = {
  InviteMembers(command) {
    const events: MemberInvitesEvent[] = [];
    const seen = new Set<string>();
    command.invites.forEach(({ email: raw, role, sso = false }, i) => {
      const email = raw.toLowerCase();
      if (raw.length > EMAIL_MAX || !EMAIL_PATTERN.test(raw))
        throw invalid(`emails[${i}]: ${JSON.stringify(raw)} is not an email address`);
      if (role !== null && !isRole(role))
        throw invalid(`emails[${i}]: role must be a member role, or null (a guest)`);
      // Each invitation is recorded (one removed since is admitted again); an email twice in one, once.
      if (seen.has(email)) return;
      seen.add(email);
      events.push({
        type: 'MemberInvited',
        data: {
          organization: command.organization,
          email,
          role,
          ...(sso ? { sso } : {}),
          invitedAt: new Date(command.at).toISOString(),
        },
      });
    });
    return events;
  },
};

export const memberInvitesDecider: Decider<MemberInvitesCommand, MemberInvitesEvent, MemberInvitesState> = {
  initialState: { organization: null, pending: {} },

  decide: decideBy(decisions),

  evolve(state, event) {
    return {
      organization: event.data.organization,
      pending: {
        ...state.pending,
        [event.data.email]: { role: event.data.role, sso: event.data.sso === true },
      },
    };
  },
};

export const memberInvitesStream = (organization: string) => `member-invites-${organization}`;

/** The job that admits a new user to the organizations that invited their email. */
export const ADMIT_INVITED_JOB = 'invites.admit-invited-user';

/** One per user created: a repeated job admits nobody twice (`AdmitMember` keeps members as they are). */
export const admitInvitedJobId = (userCreatedEventId: string) => `admit-invited-${userCreatedEventId}`;

/** The job that admits the existing user of an email an organization invites, if there is one. */
export const ADMIT_INVITED_ACCOUNT_JOB = 'invites.admit-invited-account';

/** One per invite recorded: a repeated job admits nobody twice. */
export const admitInvitedAccountJobId = (memberInvitedEventId: string) =>
  `admit-account-${memberInvitedEventId}`;
