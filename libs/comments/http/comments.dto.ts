import { ID_PATTERN } from '@app/platform/domain/ids';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { BodyExample } from '@app/platform/openapi/body-example';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, Matches, ValidateNested } from 'class-validator';
import { MAX_REACTIONS_PER_UPDATE } from '../domain/comment.decider';
import type { BodyFormat } from '../read/comment.presenter';
import type { FormatQuery, ListCommentsQuery, ListRepliesQuery } from '../read/comments.queries';
import type { PostCommentInput, PostReplyInput, UpdateCommentInput } from '../write/comment.commands';

const FORMATS: BodyFormat[] = ['markdown', 'document'];

/** A node key or a page id: letters, digits, `_` and `-`. */
const KEY_PATTERN = ID_PATTERN;

/** Emoji to add or remove; each is checked to be one emoji by the decider, which names the field. */
function Reactions(): PropertyDecorator {
  return (target, key) => {
    IsAbsentOr()(target, key);
    IsArray()(target, key);
    ArrayMaxSize(MAX_REACTIONS_PER_UPDATE)(target, key);
    Matches(/^\S{1,50}$/, { each: true, message: `${String(key)} must be emoji` })(target, key);
  };
}

/** GitBook's `TableCellTarget`: a record (row) and a definition (column) of a table block. */
export class TableCellDto {
  @Matches(KEY_PATTERN, { message: 'record must be the id of a record' })
  record!: string;

  @Matches(KEY_PATTERN, { message: 'definition must be the id of a column' })
  definition!: string;
}

@BodyExample({ body: { markdown: 'A comment' } })
export class PostCommentDto implements PostCommentInput {
  @IsAbsentOr()
  @Matches(KEY_PATTERN, { message: 'node must be the key of a block' })
  node?: string;

  @IsAbsentOr()
  @Matches(KEY_PATTERN, { message: 'page must be a page id' })
  page?: string;

  @IsAbsentOr()
  @IsObject()
  @ValidateNested()
  @Type(() => TableCellDto)
  tableCell?: TableCellDto;

  /** GitBook's `Document`: `{markdown}` or `{document}`; checked as it is read. */
  @IsObject()
  body!: Record<string, unknown>;
}

export class UpdateCommentDto implements UpdateCommentInput {
  @IsAbsentOr()
  @IsBoolean()
  resolved?: boolean;

  @IsAbsentOr()
  @IsObject()
  body?: Record<string, unknown>;

  @Reactions()
  addedReactions?: string[];

  @Reactions()
  removedReactions?: string[];
}

@BodyExample({ body: { markdown: 'A reply' } })
export class PostReplyDto implements PostReplyInput {
  @IsObject()
  body!: Record<string, unknown>;
}

export class UpdateReplyDto implements Omit<UpdateCommentInput, 'resolved'> {
  @IsAbsentOr()
  @IsObject()
  body?: Record<string, unknown>;

  @Reactions()
  addedReactions?: string[];

  @Reactions()
  removedReactions?: string[];
}

export class FormatQueryDto implements FormatQuery {
  @IsAbsentOr()
  @IsIn(FORMATS)
  format?: BodyFormat;
}

export class ListRepliesQueryDto extends ListQueryDto implements ListRepliesQuery {
  @IsAbsentOr()
  @IsIn(FORMATS)
  format?: BodyFormat;
}

export class ListCommentsQueryDto extends ListQueryDto implements ListCommentsQuery {
  @IsAbsentOr()
  @IsIn(FORMATS)
  format?: BodyFormat;

  @IsAbsentOr()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @IsAbsentOr()
  @IsIn(['all', 'open', 'resolved'])
  status?: 'all' | 'open' | 'resolved';

  @IsAbsentOr()
  @Matches(KEY_PATTERN, { message: 'targetPage must be a page id' })
  targetPage?: string;

  /** User ids, the key once per id as GitBook's client sends an array. */
  @IsAbsentOr()
  @Transform(({ value }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(ID_PATTERN, { each: true, message: 'authors must be user ids' })
  authors?: string[];
}
