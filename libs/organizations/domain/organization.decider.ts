import {
  conflict,
  type Decider,
  type Decisions,
  DomainError,
  decideBy,
  invalid,
  notFound,
} from '@app/platform/domain/decider';
import type { Role } from '@app/platform/domain/roles';
import { checkStandaloneMergeRules, type StandaloneMergeRules } from '@app/spaces/domain/merge-rules';

/** What an update may change; `null` clears a setting (a default role of null makes newcomers guests). */
export interface OrganizationSettings {
  title: string;
  emailDomains: string[];
  hostname: string;
  defaultRole: Role | null;
  logo: string | null;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  /** The merge rules of the spaces that `inherit` theirs (GitBook's default); absent: none. */
  mergeRules: StandaloneMergeRules;
}

export type OrganizationChanges = Partial<OrganizationSettings>;

export type OrganizationState =
  | { status: 'none' }
  | ({
      status: 'active';
      id: string;
      title: string;
      /** Role of each member by user id; null for a guest. */
      members: Record<string, Role | null>;
      /** When each member was last recorded as seen (ms), to record it at most once per `SEEN_EVERY_MS`. */
      seen?: Record<string, number>;
      /** Members set as SSO members. */
      ssoMembers?: Record<string, true>;
    } & Partial<Omit<OrganizationSettings, 'title'>>);

/** A member's activity is recorded at most this often: a ping per page view must not write an event each. */
export const SEEN_EVERY_MS = 60_000;

export type OrganizationEvent =
  | {
      type: 'OrganizationCreated';
      data: {
        organizationId: string;
        title: string;
        emailDomains: string[];
        createdBy: string;
        createdAt: string;
      };
    }
  | {
      type: 'MemberAdded';
      /** `invite`: the invite that admitted the member (a link's id, or `email` for an email invite). */
      data: { organizationId: string; userId: string; role: Role | null; joinedAt: string; invite?: string };
    }
  | {
      type: 'MemberRoleChanged';
      /** A null role makes the member a guest. */
      data: { organizationId: string; userId: string; role: Role | null; changedAt: string };
    }
  | { type: 'MemberRemoved'; data: { organizationId: string; userId: string; removedAt: string } }
  | { type: 'MemberSetAsSso'; data: { organizationId: string; userId: string; setAt: string } }
  | { type: 'MemberSeen'; data: { organizationId: string; userId: string; seenAt: string } }
  | {
      type: 'OrganizationUpdated';
      data: { organizationId: string; changes: OrganizationChanges; updatedAt: string };
    };

export type OrganizationCommand =
  | { type: 'CreateOrganization'; organizationId: string; title: string; createdBy: string; at: number }
  | { type: 'AddMember'; userId: string; role: Role; at: number }
  /** Admits a user through an invite; one who is already a member keeps their role. */
  /** A null role admits a guest (a link to a space or collection). */
  | {
      type: 'AdmitMember';
      userId: string;
      role: Role | null;
      invite: string;
      /** Admitted as an SSO member too (an email invite with `sso`), in the same write. */
      sso?: boolean;
      at: number;
    }
  | ({ type: 'ChangeMemberRole'; userId: string; role: Role | null; at: number } & ByAdmin)
  /** Removes a member; with `by`, an admin does, or the member leaves (`by` is them). */
  | ({ type: 'RemoveMember'; userId: string; at: number } & ByAdmin)
  | ({ type: 'SetMemberAsSso'; userId: string; at: number } & ByAdmin)
  | { type: 'RecordMemberSeen'; userId: string; at: number }
  | ({ type: 'UpdateOrganization'; changes: OrganizationChanges; at: number } & ByAdmin);

/**
 * The member whose admin role an API change relies on. The route checked it against the views; it is
 * checked again here, on the organization's own stream at the revision the change is appended after,
 * so an admin demoted or removed meanwhile (by a change decided first) is refused rather than recorded
 * changing roles as a non-admin. Absent for the command line, jobs and sign-ins, which act on their own.
 */
type ByAdmin = { by?: string };

/** A subdomain label: what GitBook's `subdomain` allows (3 to 32 characters). */
export const HOSTNAME_PATTERN = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/;
/** A domain name of at least two labels, ending with a top-level domain of letters (any case). */
export const EMAIL_DOMAIN_PATTERN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** Whether `value` is a domain name: the pattern, and at most 253 characters. */
export const isEmailDomain = (value: string) => value.length <= 253 && EMAIL_DOMAIN_PATTERN.test(value);
export const EMAIL_DOMAINS_MAX = 100;
export const LOGO_MAX = 2048;

/** The `invite` of a member admitted by an email invite rather than a link. */
export const EMAIL_INVITE = 'email';

/** The `invite` of a member admitted by signing in with a SAML provider of the organization. */
export const samlInvite = (samlProviderId: string) => `saml:${samlProviderId}`;
/** The SAML provider a member was admitted through, from their `invite`; undefined for any other. */
export const samlProviderOfInvite = (invite: string | undefined) =>
  invite?.startsWith('saml:') ? invite.slice(5) : undefined;

/** Whether an `invite` is a link's id: links can be switched off (`inviteLinks`), email and SSO cannot. */
const isLinkInvite = (invite: string) =>
  invite !== EMAIL_INVITE && samlProviderOfInvite(invite) === undefined;

const iso = (ms: number) => new Date(ms).toISOString();

function live(state: OrganizationState) {
  if (state.status !== 'active') throw notFound('Organization not found');
  return state;
}

function memberOf(org: Extract<OrganizationState, { status: 'active' }>, userId: string) {
  if (!(userId in org.members)) throw notFound('Member not found');
  return org.members[userId];
}

/** Refuses a change an admin asked for when, as the stream stands, they are no longer one (see `ByAdmin`). */
function stillAdmin(org: Extract<OrganizationState, { status: 'active' }>, command: ByAdmin) {
  if (command.by === undefined || org.members[command.by] === 'admin') return;
  throw new DomainError(
    'forbidden',
    'Only an admin of the organization may do this, and the caller no longer is',
  );
}

/** An organization always keeps an administrator: the last one can be neither removed nor demoted. */
function keepsAnAdmin(org: Extract<OrganizationState, { status: 'active' }>, userId: string, what: string) {
  if (org.members[userId] !== 'admin') return;
  const others = Object.entries(org.members).some(([id, role]) => id !== userId && role === 'admin');
  if (!others) throw conflict(`The last admin of the organization cannot be ${what}`);
}

function checkedTitle(raw: string): string {
  const title = raw.trim();
  if (title.length < 2 || title.length > 255) throw invalid('title must be 2 to 255 characters');
  return title;
}

/** Domains compare without case: stored in lower case, each once. */
function checkedEmailDomains(domains: readonly string[]): string[] {
  if (domains.length > EMAIL_DOMAINS_MAX) throw invalid(`emailDomains: at most ${EMAIL_DOMAINS_MAX} domains`);
  const out: string[] = [];
  for (const raw of domains) {
    if (!isEmailDomain(raw)) throw invalid(`emailDomains: ${JSON.stringify(raw)} is not a domain name`);
    const domain = raw.toLowerCase();
    if (out.includes(domain)) throw invalid(`emailDomains: ${domain} is listed twice`);
    out.push(domain);
  }
  return out;
}

function checkedLogo(logo: string | null): string | null {
  if (logo === null) return null;
  let url: URL | undefined;
  try {
    url = new URL(logo);
  } catch {
    url = undefined;
  }
  if (!url || logo.length > LOGO_MAX || !/^https?:$/.test(url.protocol)) {
    throw invalid(`logo must be an http(s) URL of at most ${LOGO_MAX} characters, or null`);
  }
  return logo;
}

/** The changes, each checked, normalized and kept only when it changes something. */
function effectiveChanges(
  org: Extract<OrganizationState, { status: 'active' }>,
  requested: OrganizationChanges,
) {
  const checked: OrganizationChanges = { ...requested };
  if (requested.title !== undefined) checked.title = checkedTitle(requested.title);
  if (requested.emailDomains !== undefined)
    checked.emailDomains = checkedEmailDomains(requested.emailDomains);
  if (requested.hostname !== undefined && !HOSTNAME_PATTERN.test(requested.hostname)) {
    throw invalid(
      'hostname must be 3 to 32 lowercase letters, digits or dashes, not starting or ending with a dash',
    );
  }
  if (requested.logo !== undefined) checked.logo = checkedLogo(requested.logo);
  if (requested.mergeRules !== undefined)
    checked.mergeRules = checkStandaloneMergeRules(requested.mergeRules);
  const current: OrganizationSettings = {
    title: org.title,
    emailDomains: org.emailDomains ?? [],
    hostname: org.hostname ?? '',
    defaultRole: org.defaultRole ?? null,
    logo: org.logo ?? null,
    sso: org.sso ?? false,
    ai: org.ai ?? false,
    inviteLinks: org.inviteLinks ?? true,
    mergeRules: org.mergeRules ?? { type: 'none' },
  };
  const changes: OrganizationChanges = {};
  for (const key of Object.keys(checked) as (keyof OrganizationSettings)[]) {
    const value = checked[key];
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(current[key])) {
      Object.assign(changes, { [key]: value });
    }
  }
  return changes;
}

/** What each command decides. */
const decisions: Decisions<OrganizationCommand, OrganizationEvent, OrganizationState> = {
  CreateOrganization(command, state) {
    if (state.status !== 'none') throw conflict('Organization already exists');
    const title = checkedTitle(command.title);
    return [
      {
        type: 'OrganizationCreated',
        data: {
          organizationId: command.organizationId,
          title,
          emailDomains: [],
          createdBy: command.createdBy,
          createdAt: iso(command.at),
        },
      },
      // Whoever creates an organization administers it.
      {
        type: 'MemberAdded',
        data: {
          organizationId: command.organizationId,
          userId: command.createdBy,
          role: 'admin',
          joinedAt: iso(command.at),
        },
      },
    ];
  },

  AddMember(command, state) {
    const org = live(state);
    if (command.userId in org.members) throw conflict('User is already a member of this organization');
    return [
      {
        type: 'MemberAdded',
        data: {
          organizationId: org.id,
          userId: command.userId,
          role: command.role,
          joinedAt: iso(command.at),
        },
      },
    ];
  },

  AdmitMember(command, state) {
    const org = live(state);
    if (command.userId in org.members) return [];
    // Decided on the organization's own stream, so switching links off refuses the next join anywhere.
    if (isLinkInvite(command.invite) && org.inviteLinks === false) {
      throw new DomainError('forbidden', 'Invite links are turned off for this organization (inviteLinks)');
    }
    return [
      {
        type: 'MemberAdded',
        data: {
          organizationId: org.id,
          userId: command.userId,
          role: command.role,
          joinedAt: iso(command.at),
          invite: command.invite,
        },
      },
      ...(command.sso
        ? [
            {
              type: 'MemberSetAsSso' as const,
              data: { organizationId: org.id, userId: command.userId, setAt: iso(command.at) },
            },
          ]
        : []),
    ];
  },

  ChangeMemberRole(command, state) {
    const org = live(state);
    stillAdmin(org, command);
    const current = memberOf(org, command.userId);
    if (current === command.role) return [];
    if (command.role !== 'admin') keepsAnAdmin(org, command.userId, 'demoted');
    return [
      {
        type: 'MemberRoleChanged',
        data: {
          organizationId: org.id,
          userId: command.userId,
          role: command.role,
          changedAt: iso(command.at),
        },
      },
    ];
  },

  RemoveMember(command, state) {
    const org = live(state);
    if (command.by !== command.userId) stillAdmin(org, command);
    memberOf(org, command.userId);
    keepsAnAdmin(org, command.userId, 'removed');
    return [
      {
        type: 'MemberRemoved',
        data: { organizationId: org.id, userId: command.userId, removedAt: iso(command.at) },
      },
    ];
  },

  SetMemberAsSso(command, state) {
    const org = live(state);
    stillAdmin(org, command);
    memberOf(org, command.userId);
    if (org.ssoMembers?.[command.userId]) return [];
    return [
      {
        type: 'MemberSetAsSso',
        data: { organizationId: org.id, userId: command.userId, setAt: iso(command.at) },
      },
    ];
  },

  RecordMemberSeen(command, state) {
    const org = live(state);
    memberOf(org, command.userId);
    const last = org.seen?.[command.userId];
    if (last !== undefined && command.at - last < SEEN_EVERY_MS) return [];
    return [
      {
        type: 'MemberSeen',
        data: { organizationId: org.id, userId: command.userId, seenAt: iso(command.at) },
      },
    ];
  },

  UpdateOrganization(command, state) {
    const org = live(state);
    stillAdmin(org, command);
    const changes = effectiveChanges(org, command.changes);
    if (Object.keys(changes).length === 0) return [];
    return [
      {
        type: 'OrganizationUpdated',
        data: { organizationId: org.id, changes, updatedAt: iso(command.at) },
      },
    ];
  },
};

export const organizationDecider: Decider<OrganizationCommand, OrganizationEvent, OrganizationState> = {
  initialState: { status: 'none' },

  decide: decideBy(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated':
        return {
          status: 'active',
          id: event.data.organizationId,
          title: event.data.title,
          emailDomains: event.data.emailDomains,
          members: {},
        };
      case 'OrganizationUpdated':
        return state.status === 'active' ? { ...state, ...event.data.changes } : state;
      case 'MemberAdded':
      case 'MemberRoleChanged':
        return state.status === 'active'
          ? { ...state, members: { ...state.members, [event.data.userId]: event.data.role } }
          : state;
      case 'MemberRemoved': {
        if (state.status !== 'active') return state;
        const { [event.data.userId]: _role, ...members } = state.members;
        const { [event.data.userId]: _seen, ...seen } = state.seen ?? {};
        const { [event.data.userId]: _sso, ...ssoMembers } = state.ssoMembers ?? {};
        return { ...state, members, seen, ssoMembers };
      }
      case 'MemberSetAsSso':
        return state.status === 'active'
          ? { ...state, ssoMembers: { ...state.ssoMembers, [event.data.userId]: true } }
          : state;
      case 'MemberSeen':
        return state.status === 'active'
          ? { ...state, seen: { ...state.seen, [event.data.userId]: Date.parse(event.data.seenAt) } }
          : state;
      default:
        return state;
    }
  },
};

export const organizationStream = (organizationId: string) => `organization-${organizationId}`;
