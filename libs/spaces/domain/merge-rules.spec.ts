import { DomainError } from '@app/platform/domain/decider';
import { checkMergeRules, enforceMergeRules, type MergeRulesConfiguration } from './merge-rules';

const cr = (reviews: Record<string, { status: 'approved' | 'changes-requested'; revision: string }>) => ({
  reviews,
  revision: { id: 'r2' },
  createdBy: 'author',
});
const rules = (
  ...list: MergeRulesConfiguration extends infer C ? (C extends { rules: infer R } ? R : never) : never
) => ({ type: 'rules', rules: list }) as MergeRulesConfiguration;
const refusal = (fn: () => void) => {
  try {
    fn();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
};

describe('merge rules', () => {
  it('accepts inherit, none and known rules, refusing custom ones and malformed users', () => {
    expect(checkMergeRules({ type: 'inherit' })).toEqual({ type: 'inherit' });
    expect(
      checkMergeRules({ type: 'rules', rules: [{ rule: 'allow_bypass', users: ['u1', 'u1'] }] }),
    ).toEqual({
      type: 'rules',
      rules: [{ rule: 'allow_bypass', users: ['u1'] }],
    });
    expect(() => checkMergeRules({ type: 'rules', rules: [{ rule: 'custom', expression: 'true' }] })).toThrow(
      /rules\[0\]\.rule/,
    );
    expect(() =>
      checkMergeRules({ type: 'rules', rules: [{ rule: 'allow_bypass', users: ['a b'] }] }),
    ).toThrow(/users/);
    expect(() => checkMergeRules('none')).toThrow(/object/);
  });

  it('needs approvals of the current revision, not by the author, unless the actor may bypass', () => {
    const oneReview = rules({ rule: 'require_at_least_one_review' });
    expect(refusal(() => enforceMergeRules(oneReview, cr({}), 'x'))).toMatch(/at least one approval/);
    expect(
      refusal(() =>
        enforceMergeRules(oneReview, cr({ author: { status: 'approved', revision: 'r2' } }), 'x'),
      ),
    ).toBeDefined();
    expect(
      refusal(() => enforceMergeRules(oneReview, cr({ u1: { status: 'approved', revision: 'r1' } }), 'x')),
    ).toBeDefined();
    expect(
      refusal(() => enforceMergeRules(oneReview, cr({ u1: { status: 'approved', revision: 'r2' } }), 'x')),
    ).toBeUndefined();

    const specific = rules({ rule: 'require_specific_reviewers', users: ['u1', 'u2'] });
    expect(
      refusal(() => enforceMergeRules(specific, cr({ u1: { status: 'approved', revision: 'r2' } }), 'x')),
    ).toMatch(/u2/);
    const oneOf = rules({ rule: 'require_one_of_specific_reviewers', users: ['u1', 'u2'] });
    expect(
      refusal(() => enforceMergeRules(oneOf, cr({ u2: { status: 'approved', revision: 'r2' } }), 'x')),
    ).toBeUndefined();
    expect(
      refusal(() =>
        enforceMergeRules(oneOf, cr({ u2: { status: 'changes-requested', revision: 'r2' } }), 'x'),
      ),
    ).toBeDefined();

    const bypass = rules({ rule: 'require_at_least_one_review' }, { rule: 'allow_bypass', users: ['boss'] });
    expect(refusal(() => enforceMergeRules(bypass, cr({}), 'boss'))).toBeUndefined();
    expect(refusal(() => enforceMergeRules({ type: 'none' }, cr({}), 'x'))).toBeUndefined();
  });
});
