import { ROLES, type Role } from '@app/platform/domain/roles';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import type {
  ListMembersQuery,
  MemberSort,
  MemberSpacesQuery,
  MemberTeamsQuery,
} from '../read/members.queries';
import type { UpdateMemberInput } from '../write/member.commands';

const ORDERS = ['asc', 'desc'] as const;
const SORTS: readonly MemberSort[] = ['joinedAt', 'lastSeenAt', 'name'];
const ROLE_FILTERS = [...ROLES, 'guest'] as const;
const SEARCH_MAX = 512;

export class ListMembersQueryDto extends ListQueryDto implements ListMembersQuery {
  @IsAbsentOr()
  @IsIn(ORDERS)
  order?: 'asc' | 'desc';

  @IsAbsentOr()
  @IsIn(ROLE_FILTERS)
  role?: Role | 'guest';

  @IsAbsentOr()
  @IsString()
  @MaxLength(SEARCH_MAX)
  search?: string;

  @IsAbsentOr()
  @IsIn(SORTS)
  sort?: MemberSort;
}

export class MemberTeamsQueryDto extends ListQueryDto implements MemberTeamsQuery {
  @IsAbsentOr()
  @IsString()
  @MaxLength(SEARCH_MAX)
  title?: string;
}

export class MemberSpacesQueryDto extends ListQueryDto implements MemberSpacesQuery {
  @IsAbsentOr()
  @IsIn(ORDERS)
  order?: 'asc' | 'desc';
}

export class UpdateMemberDto implements UpdateMemberInput {
  /** A role, or null: the member becomes a guest. */
  @IsOptional()
  @IsIn([...ROLES], { message: `role must be one of ${ROLES.join(', ')} or null` })
  role?: Role | null;
}
