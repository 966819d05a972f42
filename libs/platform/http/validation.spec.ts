import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { BooleanQuery } from './fields';
import { ListQueryDto } from './pagination';
import { createValidationPipe, IsAbsentOr, leanQuery } from './validation';

class SearchQuery extends ListQueryDto {
  @IsAbsentOr()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @IsAbsentOr()
  @IsString()
  @MaxLength(8)
  search?: string;

  @ValidateIf((query: SearchQuery) => query.order === 'asc')
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(9)
  from?: number;
}

class RequiredQuery {
  @IsString()
  q!: string;

  @IsOptional()
  @IsString()
  other?: string;
}

class FlagQuery {
  @BooleanQuery()
  archived?: boolean;
}

/** What the whole pipe (class-transformer, then class-validator) makes of `value`, or its error. */
async function full(value: unknown, metatype: new () => object) {
  try {
    // Not a query: the lean path is for queries only.
    return { dto: await createValidationPipe().transform(value, { type: 'body', metatype }) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('leanQuery', () => {
  const queries: Record<string, unknown>[] = [
    {},
    { search: 'ada' },
    { search: 'ada lovel' },
    { search: 'ad🦊🦊🦊🦊' },
    { search: ['a', 'b'] },
    { order: 'asc' },
    { order: 'up' },
    { limit: '10', page: 'WzEsIiJd' },
    { limit: '' },
    { limit: '1001' },
    { limit: '1e3' },
    { limit: '-1' },
    { limit: '5.5' },
    { limit: ' 7 ' },
    { order: 'asc', from: '3' },
    { order: 'asc', from: '0' },
    { order: 'desc', from: 'x' },
    { from: 'x' },
    { unknown: '1' },
    { toString: 'x' },
    { q: 'x' },
  ];

  it('makes of a valid query what the whole pipe makes, and leaves every other query to it', async () => {
    let lean = 0;
    for (const metatype of [SearchQuery, RequiredQuery, FlagQuery]) {
      for (const query of queries) {
        const made = leanQuery({ ...query }, metatype);
        const expected = await full({ ...query }, metatype);
        if (made === undefined) continue;
        lean++;
        expect(expected).toEqual({ dto: made });
        expect(Object.getPrototypeOf(made)).toBe(metatype.prototype);
        expect(Object.keys(made)).toEqual(Object.keys((expected as { dto: object }).dto));
      }
    }
    // Most valid queries of the searches take the lean path; a DTO with a transformation never does.
    expect(lean).toBeGreaterThan(8);
    expect(leanQuery({ archived: 'true' }, FlagQuery)).toBeUndefined();
    expect(leanQuery({}, RequiredQuery)).toBeUndefined();
    expect(leanQuery({ q: 'x' }, RequiredQuery)).toBeDefined();
  });

  it("is what the pipe answers for a valid query, and a refused one has the whole pipe's message", async () => {
    const pipe = createValidationPipe();
    const query = { type: 'query' as const, metatype: SearchQuery };
    expect(await pipe.transform({ search: 'Ada', limit: '5' }, query)).toEqual(
      Object.assign(new SearchQuery(), { search: 'Ada', limit: 5 }),
    );
    await expect(pipe.transform({ search: 'x', limit: '5000', foo: '1' }, query)).rejects.toThrow(
      'property foo should not exist; limit must not be greater than 1000',
    );
  });
});
