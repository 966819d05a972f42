import { ROLES, type Role } from '@app/platform/domain/roles';
import { IsAbsentOr } from '@app/platform/http/validation';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn } from 'class-validator';
import type { InviteLinkInput, InviteUsersInput } from '../write/invite.commands';

const ROLE_MESSAGE = `role must be one of ${ROLES.join(', ')}`;

/** At most this many emails in one invitation. */
export const INVITE_EMAILS_MAX = 100;

/** GitBook's `CreateInviteToOrganization`; guests (a null role) are not members here. */
export class CreateInviteLinkDto implements InviteLinkInput {
  @IsIn([...ROLES], { message: ROLE_MESSAGE })
  role!: Role;
}

/** The organization form of `updateOrganizationInviteById`'s body. */
export class UpdateInviteLinkDto implements InviteLinkInput {
  @IsIn([...ROLES], { message: ROLE_MESSAGE })
  role!: Role;
}

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
