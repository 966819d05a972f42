import { ID_PATTERN } from '@app/platform/domain/ids';
import { ROLES, type Role } from '@app/platform/domain/roles';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, Matches, ValidateIf } from 'class-validator';
import { GRANTEES_MAX } from '../domain/grant.decider';
import type { AggregateQuery } from '../read/permissions.queries';
import type { InviteInput, SetPermissionInput } from '../write/grant.commands';

const ROLE_OR_NULL = { message: `role must be one of ${ROLES.join(', ')}, or null` };

/** GitBook's `InviteUsersAndTeams`: a role (null takes access away) for users, teams or both. */
export class InviteDto implements InviteInput {
  @ValidateIf((body: InviteDto) => body.role !== null)
  @IsIn([...ROLES], ROLE_OR_NULL)
  role!: Role | null;

  @IsAbsentOr()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(GRANTEES_MAX)
  @Matches(ID_PATTERN, { each: true, message: 'users must be user ids' })
  users?: string[];

  @IsAbsentOr()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(GRANTEES_MAX)
  @Matches(ID_PATTERN, { each: true, message: 'teams must be team ids' })
  teams?: string[];
}

/** The body of GitBook's `update…PermissionIn…`: the role to set, null to take the grant away. */
export class SetPermissionDto implements SetPermissionInput {
  @ValidateIf((body: SetPermissionDto) => body.role !== null)
  @IsIn([...ROLES], ROLE_OR_NULL)
  role?: Role | null;
}

export class AggregateQueryDto extends ListQueryDto implements AggregateQuery {
  @IsAbsentOr()
  @IsIn([...ROLES])
  role?: Role;
}
