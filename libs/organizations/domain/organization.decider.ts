import { conflict, type Decider, invalid, notFound } from '@app/platform/domain/decider';
import type { Role } from '@app/platform/domain/roles';

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
}

export type OrganizationChanges = Partial<OrganizationSettings>;

export type OrganizationState =
  | { status: 'none' }
  | ({ status: 'active'; id: string; title: string; members: Record<string, Role> } & Partial<
      Omit<OrganizationSettings, 'title'>
    >);

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
  | { type: 'MemberAdded'; data: { organizationId: string; userId: string; role: Role; joinedAt: string } }
  | {
      type: 'MemberRoleChanged';
      data: { organizationId: string; userId: string; role: Role; changedAt: string };
    }
  | {
      type: 'OrganizationUpdated';
      data: { organizationId: string; changes: OrganizationChanges; updatedAt: string };
    };

export type OrganizationCommand =
  | { type: 'CreateOrganization'; organizationId: string; title: string; createdBy: string; at: number }
  | { type: 'AddMember'; userId: string; role: Role; at: number }
  | { type: 'ChangeMemberRole'; userId: string; role: Role; at: number }
  | { type: 'UpdateOrganization'; changes: OrganizationChanges; at: number };

/** A subdomain label: what GitBook's `subdomain` allows (3 to 32 characters). */
export const HOSTNAME_PATTERN = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/;
/** A domain name of at least two labels, ending with a top-level domain of letters (any case). */
export const EMAIL_DOMAIN_PATTERN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** Whether `value` is a domain name: the pattern, and at most 253 characters. */
export const isEmailDomain = (value: string) => value.length <= 253 && EMAIL_DOMAIN_PATTERN.test(value);
export const EMAIL_DOMAINS_MAX = 100;
export const LOGO_MAX = 2048;

const iso = (ms: number) => new Date(ms).toISOString();

function live(state: OrganizationState) {
  if (state.status !== 'active') throw notFound('Organization not found');
  return state;
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
  const current: OrganizationSettings = {
    title: org.title,
    emailDomains: org.emailDomains ?? [],
    hostname: org.hostname ?? '',
    defaultRole: org.defaultRole ?? null,
    logo: org.logo ?? null,
    sso: org.sso ?? false,
    ai: org.ai ?? false,
    inviteLinks: org.inviteLinks ?? false,
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

export const organizationDecider: Decider<OrganizationCommand, OrganizationEvent, OrganizationState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateOrganization': {
        if (state.status !== 'none') throw conflict('Organization already exists');
        const title = command.title.trim();
        if (title.length < 2 || title.length > 255) throw invalid('title must be 2 to 255 characters');
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
      }
      case 'AddMember': {
        const org = live(state);
        if (org.members[command.userId]) throw conflict('User is already a member of this organization');
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
      }
      case 'ChangeMemberRole': {
        const org = live(state);
        const current = org.members[command.userId];
        if (!current) throw notFound('Member not found');
        if (current === command.role) return [];
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
      }
      case 'UpdateOrganization': {
        const org = live(state);
        const changes = effectiveChanges(org, command.changes);
        if (Object.keys(changes).length === 0) return [];
        return [
          {
            type: 'OrganizationUpdated',
            data: { organizationId: org.id, changes, updatedAt: iso(command.at) },
          },
        ];
      }
      default: {
        const unknown: never = command;
        throw invalid(`unknown command ${(unknown as { type: string }).type}`);
      }
    }
  },

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
      default:
        return state;
    }
  },
};

export const organizationStream = (organizationId: string) => `organization-${organizationId}`;
