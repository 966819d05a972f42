import { describedRule } from '@app/platform/openapi/described-rule';
import { ValidateBy } from 'class-validator';
import { checkMergeRules, checkStandaloneMergeRules, MERGE_RULES } from '../domain/merge-rules';

const WITH_USERS = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'];
const SIMPLE = MERGE_RULES.filter((rule) => !WITH_USERS.includes(rule));
const users = { type: 'array', maxItems: 100, items: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } };

/** GitBook's merge rules without `custom` ones, which are refused; `inherit` where a space takes it. */
const mergeRulesSchema = (inherit: boolean) => ({
  oneOf: [
    {
      type: 'object',
      properties: { type: { enum: inherit ? ['inherit', 'none'] : ['none'] } },
      required: ['type'],
    },
    {
      type: 'object',
      properties: {
        type: { const: 'rules' },
        rules: {
          type: 'array',
          maxItems: 20,
          items: {
            oneOf: [
              {
                type: 'object',
                properties: { rule: { enum: SIMPLE } },
                required: ['rule'],
              },
              {
                type: 'object',
                properties: {
                  rule: { enum: WITH_USERS },
                  users,
                },
                required: ['rule', 'users'],
              },
            ],
          },
        },
      },
      required: ['type', 'rules'],
    },
  ],
});

/**
 * Merge rules as the domain accepts them: a space's (GitBook's `MergeRulesSpaceConfiguration`, with
 * `inherit`) or an organization's (`MergeRulesStandaloneConfiguration`); the message names what is wrong.
 */
export function IsMergeRules(options: { inherit: boolean }): PropertyDecorator {
  const check = options.inherit ? checkMergeRules : checkStandaloneMergeRules;
  const problem = (value: unknown) => {
    try {
      check(value);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };
  return ValidateBy({
    name: 'isMergeRules',
    constraints: [describedRule(mergeRulesSchema(options.inherit))],
    validator: {
      validate: (value) => problem(value) === undefined,
      defaultMessage: (args) => problem(args?.value) ?? 'mergeRules: invalid',
    },
  });
}
