import { ID_PATTERN } from '@app/platform/domain/ids';
import type { DefaultLevel } from '@app/platform/domain/roles';
import { BooleanQuery, IsDefaultLevel, Text } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { IsString, Matches } from 'class-validator';
import type { ListCollectionsQuery } from '../read/collections.queries';
import type { CreateCollectionInput, UpdateCollectionInput } from '../write/collection.commands';

export class CreateCollectionDto implements CreateCollectionInput {
  @IsAbsentOr()
  @Text(50)
  title?: string;

  @IsAbsentOr()
  @IsString()
  @Matches(ID_PATTERN, { message: 'parent must be a collection id' })
  parent?: string;
}

export class UpdateCollectionDto implements UpdateCollectionInput {
  @IsAbsentOr()
  @Text(50)
  title?: string;

  @IsAbsentOr()
  @Text(100, { lines: true })
  description?: string;

  @IsDefaultLevel()
  defaultLevel?: DefaultLevel;
}

export class ListCollectionsQueryDto extends ListQueryDto implements ListCollectionsQuery {
  @BooleanQuery()
  nested?: boolean;
}
