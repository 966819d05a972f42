import {
  adaptiveSchemaProblem,
  DEFAULT_ADAPTIVE_SCHEMA,
  DRAFT_07,
  templateConditions,
  UNSIGNED_DESCRIPTION,
} from './adaptive-schema';

const unsigned = (properties: Record<string, unknown>) => ({
  type: 'object',
  description: UNSIGNED_DESCRIPTION,
  properties,
  additionalProperties: false,
});
const schema = (properties: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  additionalProperties: false,
  ...rest,
});
const claim = (description = 'A claim') => ({ type: 'boolean', description });

describe('adaptive schemas', () => {
  it('accepts boolean claims, signed and unsigned, and the default', () => {
    expect(adaptiveSchemaProblem(DEFAULT_ADAPTIVE_SCHEMA)).toBeNull();
    expect(adaptiveSchemaProblem(schema({ beta: claim() }, { $schema: DRAFT_07 }))).toBeNull();
    expect(
      adaptiveSchemaProblem(schema({ beta: claim(), unsigned: unsigned({ optOut: claim() }) })),
    ).toBeNull();
  });

  it('refuses anything else, naming where', () => {
    const cases: [unknown, string][] = [
      [
        schema({ plan: { type: 'string', description: 'Plan' } }),
        'jsonSchema.properties.plan must be a boolean claim',
      ],
      [schema({ plan: { type: 'boolean' } }), 'jsonSchema.properties.plan must be a boolean claim'],
      [schema({ plan: true }), 'jsonSchema.properties.plan must be a boolean claim'],
      [
        schema({ unsigned: unsigned({ n: { type: 'number', description: 'N' } }) }),
        'jsonSchema.properties.unsigned.properties.n must be a boolean claim',
      ],
      [schema({ unsigned: claim() }), 'jsonSchema.properties.unsigned.properties is required'],
      [
        schema({ unsigned: { ...unsigned({}), type: 'string' } }),
        'jsonSchema.properties.unsigned.type must be "object"',
      ],
      [schema({}, { additionalProperties: true }), 'jsonSchema.additionalProperties must be false'],
      [schema({}, { type: 'array' }), 'jsonSchema.type must be "object"'],
      [schema({}, { $schema: 'https://json-schema.org/draft/2020-12/schema' }), 'jsonSchema.$schema must be'],
      [schema({}, { required: ['beta'] }), 'jsonSchema.required is not a known property'],
      [{ type: 'object', properties: {} }, 'jsonSchema.additionalProperties is required'],
      [schema({ '': claim() }), "jsonSchema.properties: a claim's name must not be empty"],
      ['object', 'jsonSchema must be object'],
    ];
    for (const [value, problem] of cases)
      expect({ value, problem: adaptiveSchemaProblem(value) }).toEqual({
        value,
        problem: expect.stringContaining(problem),
      });
  });

  it('offers a template condition per claim', () => {
    const conditions = templateConditions({
      type: 'object',
      properties: {
        beta: { type: 'boolean', description: 'Beta testers' },
        'early-access': { type: 'boolean', description: 'Early access' },
        unsigned: {
          type: 'object',
          description: UNSIGNED_DESCRIPTION,
          properties: { optOut: { type: 'boolean', description: 'Opted out' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    });
    expect(conditions).toEqual([
      { condition: 'visitor.claims.beta', description: expect.stringContaining('Beta testers') },
      { condition: 'visitor.claims["early-access"]', description: expect.stringContaining('Early access') },
      { condition: 'visitor.claims.unsigned.optOut', description: expect.stringContaining('Opted out') },
    ]);
    expect(templateConditions(DEFAULT_ADAPTIVE_SCHEMA)).toEqual([]);
  });
});
