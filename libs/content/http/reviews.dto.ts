import { ID_PATTERN } from '@app/platform/domain/ids';
import { BooleanQuery } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import { IsAbsentOr } from '@app/platform/http/validation';
import { BodyExample } from '@app/platform/openapi/body-example';
import type { ReviewStatus } from '@app/spaces/domain/merge-rules';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, Matches } from 'class-validator';
import type { ReviewsQuery } from '../read/change-requests.queries';
import type { RequestReviewersInput, SubmitReviewInput } from '../write/change-request.commands';

export class SubmitReviewDto implements SubmitReviewInput {
  @IsIn(['approved', 'changes-requested'])
  status: ReviewStatus;
}

@BodyExample({ users: ['u2Jx8QnWbL0cT4vYk9Ra'] })
export class RequestReviewersDto implements RequestReviewersInput {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @Matches(ID_PATTERN, { each: true, message: 'users must be user ids' })
  users: string[];
}

export class ReviewsQueryDto extends ListQueryDto implements ReviewsQuery {
  @BooleanQuery()
  outdated?: boolean;

  @IsAbsentOr()
  @IsIn(['document', 'markdown'])
  format?: 'document' | 'markdown';
}
