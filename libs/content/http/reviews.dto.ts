import { ID_PATTERN } from '@app/platform/domain/ids';
import { BooleanQuery, Text } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { BodyExample } from '@app/platform/openapi/body-example';
import type { ReviewStatus } from '@app/spaces/domain/merge-rules';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsObject, Matches } from 'class-validator';
import type { ReviewsQuery } from '../read/change-requests.queries';
import type { RequestReviewersInput, SubmitReviewInput } from '../write/change-request.commands';

const FORMATS = ['document', 'markdown'];

export class SubmitReviewDto implements SubmitReviewInput {
  @IsIn(['approved', 'changes-requested'])
  status: ReviewStatus;

  /** GitBook's `Document`: `{markdown}`, `{document}` or `{}` (no comment); checked as it is read. */
  @IsAbsentOr()
  @IsObject()
  comment?: Record<string, unknown>;
}

@BodyExample({ users: ['u2Jx8QnWbL0cT4vYk9Ra'] })
export class RequestReviewersDto implements RequestReviewersInput {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @Matches(ID_PATTERN, { each: true, message: 'users must be user ids' })
  users: string[];

  /** A new subject for the change request, given with the request. */
  @IsAbsentOr()
  @Text(100)
  subject?: string;

  /** A new description (GitBook's `JSONDocument`), given with the request. */
  @IsAbsentOr()
  @IsObject()
  description?: Record<string, unknown>;
}

/** `format` of the review's comment. */
export class ReviewQueryDto {
  @IsAbsentOr()
  @IsIn(FORMATS)
  format?: 'document' | 'markdown';
}

export class ReviewsQueryDto extends ListQueryDto implements ReviewsQuery {
  @BooleanQuery()
  outdated?: boolean;

  @IsAbsentOr()
  @IsIn(FORMATS)
  format?: 'document' | 'markdown';
}
