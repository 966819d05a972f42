import { ID_PATTERN } from '@app/platform/domain/ids';
import { ROLES, type Role } from '@app/platform/domain/roles';
import { IsAbsentOr } from '@app/platform/http/validation';
import { BodyExample } from '@app/platform/openapi/body-example';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, Matches, ValidateIf } from 'class-validator';
import type { InviteLinkInput, InviteUsersInput } from '../write/invite.commands';

const ROLE_MESSAGE = `role must be one of ${ROLES.join(', ')}`;

/** At most this many emails in one invitation. */
export const INVITE_EMAILS_MAX = 100;

const LEVEL_MESSAGE = `level must be one of ${ROLES.join(', ')}`;

/**
 * GitBook's `CreateOrganizationInvite`: `{role}` for the organization (guests, a null role, are not
 * members here), or `{level, space}` / `{level, collection}`; the service checks the form.
 */
export class CreateInviteLinkDto implements InviteLinkInput {
  @ValidateIf((body: CreateInviteLinkDto) => body.level === undefined)
  @IsIn([...ROLES], { message: ROLE_MESSAGE })
  role?: Role;

  @IsAbsentOr()
  @IsIn([...ROLES], { message: LEVEL_MESSAGE })
  level?: Role;

  @IsAbsentOr()
  @Matches(ID_PATTERN, { message: 'space must be a space id' })
  space?: string;

  @IsAbsentOr()
  @Matches(ID_PATTERN, { message: 'collection must be a collection id' })
  collection?: string;
}

/** `updateOrganizationInviteById`'s body: `{role}` for a link to the organization, `{level}` for one to content. */
export class UpdateInviteLinkDto implements InviteLinkInput {
  @ValidateIf((body: UpdateInviteLinkDto) => body.level === undefined)
  @IsIn([...ROLES], { message: ROLE_MESSAGE })
  role?: Role;

  @IsAbsentOr()
  @IsIn([...ROLES], { message: LEVEL_MESSAGE })
  level?: Role;
}

@BodyExample({ emails: ['invitee@example.com'] })
export class InviteUsersDto implements InviteUsersInput {
  /** Emails, or `{email, role}`: each entry is checked by the service, which names the one at fault. */
  @IsArray()
  @ArrayMaxSize(INVITE_EMAILS_MAX)
  emails!: unknown[];

  @IsAbsentOr()
  @IsIn([...ROLES], { message: ROLE_MESSAGE })
  role?: Role;

  @IsAbsentOr()
  @IsBoolean()
  sso?: boolean;
}
