import { BooleanQuery } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { Type } from 'class-transformer';
import { IsIn, IsInt, Min } from 'class-validator';

const EVALUATED = ['true', 'false', 'deterministic-only'];

/** `metadata` and `computed` of every content read: accepted; there is no git metadata or computed content to leave out. */
export class ContentQueryDto {
  @BooleanQuery()
  metadata?: boolean;

  @BooleanQuery()
  computed?: boolean;
}

export class ContentListQueryDto extends ListQueryDto {
  @BooleanQuery()
  metadata?: boolean;

  @BooleanQuery()
  computed?: boolean;
}

export class PageQueryDto extends ContentQueryDto {
  @IsAbsentOr()
  @IsIn(['document', 'markdown'])
  format?: 'document' | 'markdown';

  /** Accepted: documents hold no expressions to evaluate yet. */
  @IsAbsentOr()
  @IsIn(EVALUATED)
  evaluated?: string;

  @BooleanQuery()
  dereferenced?: boolean;

  @IsAbsentOr()
  @IsIn(['relative', 'stable'])
  'format.markdown.refs'?: string;

  @BooleanQuery()
  cachedMetadata?: boolean;
}

export class ChangesQueryDto extends ContentQueryDto {
  @IsAbsentOr()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  limit?: number;
}

export class PageDocumentQueryDto {
  @IsAbsentOr()
  @IsIn(EVALUATED)
  evaluated?: string;

  @BooleanQuery()
  dereferenced?: boolean;
}
