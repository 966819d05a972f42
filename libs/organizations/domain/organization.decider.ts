import { conflict, type Decider, invalid, notFound } from '@app/platform/domain/decider';
import type { Role } from '@app/platform/domain/roles';

export type OrganizationState =
  | { status: 'none' }
  | { status: 'active'; id: string; title: string; members: Record<string, Role> };

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
    };

export type OrganizationCommand =
  | { type: 'CreateOrganization'; organizationId: string; title: string; createdBy: string; at: number }
  | { type: 'AddMember'; userId: string; role: Role; at: number }
  | { type: 'ChangeMemberRole'; userId: string; role: Role; at: number };

const iso = (ms: number) => new Date(ms).toISOString();

function live(state: OrganizationState) {
  if (state.status !== 'active') throw notFound('Organization not found');
  return state;
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
      default: {
        const unknown: never = command;
        throw invalid(`unknown command ${(unknown as { type: string }).type}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated':
        return { status: 'active', id: event.data.organizationId, title: event.data.title, members: {} };
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
