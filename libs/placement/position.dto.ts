import { ID_PATTERN } from '@app/platform/domain/ids';
import { IsAbsentOr } from '@app/platform/http/validation';
import { BodyExample } from '@app/platform/openapi/body-example';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, Matches, ValidateIf, ValidateNested } from 'class-validator';
import type { ContentPointer, ContentPosition, MoveInput, TransferInput } from './position';

/** Points at a sibling space or collection: `{type: space, space}` or `{type: collection, collection}`. */
export class ContentPointerDto implements ContentPointer {
  @IsIn(['space', 'collection'])
  type: 'space' | 'collection';

  @ValidateIf((o: ContentPointerDto) => o.type === 'space' || o.space !== undefined)
  @IsString()
  @Matches(ID_PATTERN, { message: 'space must be an id' })
  space?: string;

  @ValidateIf((o: ContentPointerDto) => o.type === 'collection' || o.collection !== undefined)
  @IsString()
  @Matches(ID_PATTERN, { message: 'collection must be an id' })
  collection?: string;
}

export class ContentPositionDto implements ContentPosition {
  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => ContentPointerDto)
  before?: ContentPointerDto;

  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => ContentPointerDto)
  after?: ContentPointerDto;
}

/** Body of the move operations: a new parent collection (null for the top level), a position, or both. */
@BodyExample({ parent: null })
export class MoveDto implements MoveInput {
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @IsString()
  @Matches(ID_PATTERN, { message: 'parent must be a collection id or null' })
  parent?: string | null;

  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => ContentPositionDto)
  position?: ContentPositionDto;
}

export class TransferDto implements TransferInput {
  @IsString()
  @Matches(ID_PATTERN, { message: 'organization must be an organization id' })
  organization: string;
}
