import { ID_PATTERN } from '@app/platform/domain/ids';
import type { DefaultLevel } from '@app/platform/domain/roles';
import { Emoji, IsDefaultLevel, Text } from '@app/platform/http/fields';
import { IsAbsentOr } from '@app/platform/http/validation';
import { IsBoolean, IsIn, IsString, Matches, ValidateIf } from 'class-validator';
import type { EditMode } from '../domain/space.decider';
import type { CreateSpaceInput, TransferSpaceInput, UpdateSpaceInput } from '../write/space.commands';

const EDIT_MODES = ['live', 'locked'];

export class CreateSpaceDto implements CreateSpaceInput {
  @IsAbsentOr()
  @Text(50)
  title?: string;

  @IsAbsentOr()
  @Emoji()
  emoji?: string;

  @IsAbsentOr()
  @IsString()
  @Matches(ID_PATTERN, { message: 'parent must be a collection id' })
  parent?: string;

  @IsAbsentOr()
  @IsIn(EDIT_MODES)
  editMode?: EditMode;

  /** GitBook clients send `empty: true` for a space with no page; every new space starts empty here. */
  @IsAbsentOr()
  @IsBoolean()
  empty?: boolean;
}

export class UpdateSpaceDto implements UpdateSpaceInput {
  @IsAbsentOr()
  @IsIn(EDIT_MODES)
  editMode?: EditMode;

  @IsAbsentOr()
  @Text(50)
  title?: string;

  @IsDefaultLevel()
  defaultLevel?: DefaultLevel;

  /** An emoji, or null to remove it. */
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @Emoji()
  emoji?: string | null;
}

export class GetSpaceQueryDto {
  @IsAbsentOr()
  @Text(256)
  shareKey?: string;
}

export class TransferSpaceDto implements TransferSpaceInput {
  @IsString()
  @Matches(ID_PATTERN, { message: 'organization must be an organization id' })
  organization: string;

  @IsAbsentOr()
  @IsString()
  @Matches(ID_PATTERN, { message: 'parent must be a collection id' })
  parent?: string;
}
