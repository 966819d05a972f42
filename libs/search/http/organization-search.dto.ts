import { Text } from '@app/platform/http/fields';
import { ListQueryDto } from '@app/platform/http/pagination';
import type { SearchQuery } from '../read/search.queries';

export class OrganizationSearchQueryDto extends ListQueryDto implements SearchQuery {
  /** A query without a word to look for finds nothing. */
  @Text(512)
  query: string;
}
