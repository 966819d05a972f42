import { ID_PATTERN } from '@app/platform/domain/ids';
import { Text } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { ArrayMaxSize, IsArray, IsIn, IsObject, IsString, Matches, MaxLength } from 'class-validator';
import { TEAM_ROLES, TEAM_TITLE_MAX, type TeamRole } from '../domain/team.decider';
import type { ListTeamsQuery } from '../read/teams.queries';
import type {
  CreateTeamInput,
  SetTeamMemberInput,
  UpdateTeamInput,
  UpdateTeamMembersInput,
} from '../write/team.commands';

/** A user id, or an email naming the organization member who has it. */
const USER_OR_EMAIL = /^(?:[A-Za-z0-9_-]{1,64}|[^\s@]{1,64}@[^\s@]{1,255})$/;

const MAX_USERS = 1000;

export class CreateTeamDto implements CreateTeamInput {
  @Text(TEAM_TITLE_MAX)
  title!: string;

  @IsAbsentOr()
  @IsArray()
  @ArrayMaxSize(MAX_USERS)
  @Matches(ID_PATTERN, { each: true, message: 'members must be member ids' })
  members?: string[];
}

export class UpdateTeamDto implements UpdateTeamInput {
  @Text(TEAM_TITLE_MAX)
  title!: string;
}

export class UpdateTeamMembersDto implements UpdateTeamMembersInput {
  @IsAbsentOr()
  @IsArray()
  @ArrayMaxSize(MAX_USERS)
  @Matches(USER_OR_EMAIL, { each: true, message: 'add must be user ids or emails' })
  add?: string[];

  @IsAbsentOr()
  @IsArray()
  @ArrayMaxSize(MAX_USERS)
  @Matches(USER_OR_EMAIL, { each: true, message: 'remove must be user ids or emails' })
  remove?: string[];

  /** User id to `{role}`; its entries are checked by the service, which names the one at fault. */
  @IsAbsentOr()
  @IsObject()
  memberships?: Record<string, unknown>;
}

export class SetTeamMemberDto implements SetTeamMemberInput {
  @IsAbsentOr()
  @IsIn(TEAM_ROLES)
  role?: TeamRole;
}

export class ListTeamsQueryDto extends ListQueryDto implements ListTeamsQuery {
  @IsAbsentOr()
  @IsString()
  @Matches(ID_PATTERN, { message: 'owner must be a member id' })
  owner?: string;

  @IsAbsentOr()
  @IsString()
  @MaxLength(TEAM_TITLE_MAX)
  title?: string;
}
