import { BooleanQuery } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { Type } from 'class-transformer';
import { IsIn, IsInt, Min } from 'class-validator';

const EVALUATED = ['true', 'false', 'deterministic-only'];
/**
 * GitBook's `dereferenced`: `true` expands references to other content into the document,
 * `reusable-contents` only the reusable contents (what GitBook's site renderer asks for on every page).
 * Every value answers the document as stored: no reference is expanded for any of them, so the three
 * answer the same, and `reusable-contents` is accepted rather than refused.
 */
const DEREFERENCED = ['true', 'false', 'reusable-contents'];

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

  @IsAbsentOr()
  @IsIn(DEREFERENCED)
  dereferenced?: string;

  @IsAbsentOr()
  @IsIn(['relative', 'stable'])
  'format.markdown.refs'?: string;
}

/** A page read by path also takes `cachedMetadata` (accepted: there is no Git metadata to cache). */
export class PagePathQueryDto extends PageQueryDto {
  @BooleanQuery()
  cachedMetadata?: boolean;
}

/** A change request's changes: `limit` only, as GitBook's `getChangeRequestChanges`. */
export class ChangeRequestChangesQueryDto {
  @IsAbsentOr()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  limit?: number;
}

/** A revision's changes also take the content reads' `metadata` and `computed`. */
export class ChangesQueryDto extends ChangeRequestChangesQueryDto {
  @BooleanQuery()
  metadata?: boolean;

  @BooleanQuery()
  computed?: boolean;
}

export class PageDocumentQueryDto {
  @IsAbsentOr()
  @IsIn(EVALUATED)
  evaluated?: string;

  @IsAbsentOr()
  @IsIn(DEREFERENCED)
  dereferenced?: string;
}
