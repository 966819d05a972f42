import { ID_PATTERN } from '@app/platform/domain/ids';
import { ROLES } from '@app/platform/domain/roles';
import { IsAbsentOr } from '@app/platform/http/validation';
import { BodyExample } from '@app/platform/openapi/body-example';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, Matches } from 'class-validator';
import type { InviteRole } from '../domain/invite-link.decider';
import type { InviteLinkInput, InviteUsersInput } from '../write/invite.commands';

const ROLE_MESSAGE = `role must be one of ${ROLES.join(', ')}, or null (a guest)`;

/** At most this many emails in one invitation. */
export const INVITE_EMAILS_MAX = 100;

const LEVEL_MESSAGE = `level must be one of ${ROLES.join(', ')}, or null (a guest)`;

/** A role, or null (a guest): validated unless absent or null. */
const RoleOrGuest = (message: string) => IsIn([...ROLES], { message });

/** `updateOrganizationInviteById`'s body: `{role}` for a link to the organization, `{level}` for one to content. */
export class UpdateInviteLinkDto implements InviteLinkInput {
  @IsOptional()
  @RoleOrGuest(ROLE_MESSAGE)
  role?: InviteRole;

  @IsOptional()
  @RoleOrGuest(LEVEL_MESSAGE)
  level?: InviteRole;
}

/**
 * GitBook's `CreateOrganizationInvite`: `{role}` for the organization, or `{level, space}` /
 * `{level, collection}`, null for a guest; the service checks the form (one of `role` or `level` given).
 */
export class CreateInviteLinkDto extends UpdateInviteLinkDto {
  @IsAbsentOr()
  @Matches(ID_PATTERN, { message: 'space must be a space id' })
  space?: string;

  @IsAbsentOr()
  @Matches(ID_PATTERN, { message: 'collection must be a collection id' })
  collection?: string;
}

@BodyExample({ emails: ['invitee@example.com'] })
export class InviteUsersDto implements InviteUsersInput {
  /** Emails, or `{email, role}`: each entry is checked by the service, which names the one at fault. */
  @IsArray()
  @ArrayMaxSize(INVITE_EMAILS_MAX)
  emails!: unknown[];

  /** The role of entries that give none; null invites guests. */
  @IsOptional()
  @RoleOrGuest(ROLE_MESSAGE)
  role?: InviteRole;

  @IsAbsentOr()
  @IsBoolean()
  sso?: boolean;
}
