import { type ClaimsSchema, conditionProblem, evaluate } from './adaptive-condition';
import { DEFAULT_ADAPTIVE_SCHEMA, UNSIGNED_DESCRIPTION } from './adaptive-schema';

const schema: ClaimsSchema = {
  properties: {
    beta: { type: 'boolean' },
    'early-access': { type: 'boolean' },
    plan: { type: 'string' },
    unsigned: {
      type: 'object',
      description: UNSIGNED_DESCRIPTION,
      properties: { optOut: { type: 'boolean' } },
    } as ClaimsSchema['properties'][string],
  },
};

describe('adaptive conditions', () => {
  it('accepts the subset over claims of the schema', () => {
    for (const condition of [
      'visitor.claims.beta',
      '!visitor.claims.beta',
      'visitor.claims.beta && !visitor.claims.unsigned.optOut',
      '(visitor.claims.beta || visitor.claims["early-access"]) && visitor.claims.unsigned.optOut === false',
      'visitor.claims.beta == true',
      'visitor.claims.beta !== null',
      'true',
      "visitor.claims.unsigned['optOut'] != true",
    ])
      expect({ condition, problem: conditionProblem(condition, schema) }).toEqual({
        condition,
        problem: null,
      });
  });

  it('refuses a claim the schema has that is not a boolean, or comparing one with another literal', () => {
    expect(conditionProblem('visitor.claims.plan', schema)).toBe(
      'condition: visitor.claims.plan is not a boolean claim',
    );
    expect(conditionProblem('visitor.claims.beta == "yes"', schema)).toBe(
      'condition: visitor.claims.beta is a boolean claim, compared with "yes"',
    );
    expect(conditionProblem('visitor.claims.unsigned', schema)).toBe(
      "condition: visitor.claims.unsigned is not a claim of the site's adaptive schema",
    );
  });

  it('refuses a claim the schema lacks, signed or not', () => {
    expect(conditionProblem('visitor.claims.admin', schema)).toBe(
      "condition: visitor.claims.admin is not a claim of the site's adaptive schema",
    );
    expect(conditionProblem('visitor.claims.unsigned.beta', schema)).toMatch(
      /visitor\.claims\.unsigned\.beta is not a claim/,
    );
    expect(conditionProblem('visitor.claims.beta', DEFAULT_ADAPTIVE_SCHEMA)).toMatch(/is not a claim/);
    expect(conditionProblem('visitor.claims.toString', schema)).toMatch(/is not a claim/);
    expect(conditionProblem('visitor.claims.beta.value', schema)).toMatch(/no members/);
  });

  it('refuses what does not parse', () => {
    expect(conditionProblem('visitor.claims.beta &&', schema)).toMatch(/^condition: it does not parse: /);
    expect(conditionProblem('(visitor.claims.beta', schema)).toMatch(/^condition: it does not parse/);
    expect(conditionProblem('', schema)).toMatch(/^condition must be 1 to 1024/);
    expect(conditionProblem('x'.repeat(1025), schema)).toMatch(/^condition must be 1 to 1024/);
  });

  it('refuses calls, assignments and whatever else is outside the subset', () => {
    const cases: [string, RegExp][] = [
      ['alert(1)', /calling a function/],
      ['visitor.claims.beta.valueOf()', /calling a function/],
      ['visitor.claims.beta = true', /does not parse/],
      ['visitor.claims.beta ? true : false', /ConditionalExpression is not allowed/],
      ['visitor.claims.beta; true', /only one expression/],
      ['-visitor.claims.beta', /operator - is not allowed/],
      ['visitor.claims.beta + 1', /operator \+ is not allowed/],
      ['[visitor.claims.beta]', /ArrayExpression is not allowed/],
      ['this', /ThisExpression is not allowed/],
      ['process.env', /process\.env is not a claim/],
      ['visitor.claims[visitor.claims.beta]', /only be named, or quoted/],
    ];
    for (const [condition, problem] of cases) expect(conditionProblem(condition, schema)).toMatch(problem);
  });
});

describe('evaluating an adaptive condition', () => {
  it('reads the claims of a visitor, a missing one as undefined', () => {
    const claims = { beta: true, unsigned: { optOut: false } };
    expect(evaluate('visitor.claims.beta', claims)).toBe(true);
    expect(evaluate('visitor.claims.beta && !visitor.claims.unsigned.optOut', claims)).toBe(true);
    expect(evaluate('visitor.claims.beta && visitor.claims.unsigned.optOut', claims)).toBe(false);
    expect(evaluate('visitor.claims["early-access"] || visitor.claims.beta', claims)).toBe(true);
    expect(evaluate('visitor.claims.admin', claims)).toBe(false);
    expect(evaluate('visitor.claims.admin == null', claims)).toBe(true);
    expect(evaluate('visitor.claims.admin === null', claims)).toBe(false);
    expect(evaluate('visitor.claims.unsigned.optOut', {})).toBe(false);
    expect(evaluate('visitor.claims.toString', {})).toBe(false);
  });

  it('compares as JavaScript does, loosely or strictly', () => {
    expect(evaluate('visitor.claims.beta == 1', { beta: true })).toBe(true);
    expect(evaluate('visitor.claims.beta === 1', { beta: true })).toBe(false);
    expect(evaluate('visitor.claims.beta != false', { beta: true })).toBe(true);
    expect(evaluate('visitor.claims.beta !== true', { beta: true })).toBe(false);
    expect(evaluate('!(visitor.claims.beta === true)', { beta: 'true' })).toBe(true);
  });

  it('refuses to evaluate what is outside the subset', () => {
    expect(() => evaluate('alert(1)', {})).toThrow(/calling a function/);
    expect(() => evaluate('visitor.claims.beta &&', {})).toThrow(/does not parse/);
  });
});
