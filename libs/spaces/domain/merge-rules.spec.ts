import { DomainError } from '@app/platform/domain/decider';
import {
  checkMergeRules,
  checkStandaloneMergeRules,
  effectiveMergeRules,
  enforceMergeRules,
  type MergeRulesConfiguration,
} from './merge-rules';

const cr = (
  reviews: Record<string, { status: 'approved' | 'changes-requested'; revision: string }>,
  subject = 'Edit',
  state: { described?: boolean; upToDate?: boolean } = {},
) => ({
  reviews,
  revision: { id: 'r2' },
  createdBy: 'author',
  subject,
  described: state.described ?? true,
  upToDate: state.upToDate ?? true,
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

  it("accepts an organization's rules as a space's, but inherit, which an organization has nothing to take from", () => {
    expect(checkStandaloneMergeRules({ type: 'none' })).toEqual({ type: 'none' });
    expect(
      checkStandaloneMergeRules({ type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] }),
    ).toEqual({ type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] });
    expect(refusal(() => checkStandaloneMergeRules({ type: 'inherit' }))).toMatch(
      /^mergeRules: type must be none/,
    );
    expect(refusal(() => checkStandaloneMergeRules(null))).toMatch(/^mergeRules: /);
    expect(
      refusal(() =>
        checkStandaloneMergeRules({ type: 'rules', rules: [{ rule: 'custom', expression: 'x' }] }),
      ),
    ).toMatch(/^mergeRules\.rules\[0\]\.rule: /);
  });

  it("applies a space's own rules, or its organization's when it inherits (none until set)", () => {
    const review = rules({ rule: 'require_at_least_one_review' });
    expect(effectiveMergeRules(undefined, undefined)).toEqual({ type: 'none' });
    expect(effectiveMergeRules({ type: 'inherit' }, undefined)).toEqual({ type: 'none' });
    expect(effectiveMergeRules({ type: 'inherit' }, review as never)).toEqual(review);
    expect(effectiveMergeRules(undefined, review as never)).toEqual(review);
    expect(effectiveMergeRules({ type: 'none' }, review as never)).toEqual({ type: 'none' });
    const own = rules({ rule: 'allow_bypass', users: ['u1'] });
    expect(effectiveMergeRules(own, review as never)).toEqual(own);
  });

  it('enforces the rules without users GitBook lists, refusing the ones not enforced here', () => {
    const one = (rule: string) => rules({ rule } as never);
    const approvedNow = { status: 'approved' as const, revision: 'r2' };
    const blocked = { status: 'changes-requested' as const, revision: 'r1' };
    // An approval of the latest revision by someone else than the author.
    const approvedReview = one('require_at_least_one_approved_review');
    expect(refusal(() => enforceMergeRules(approvedReview, cr({}), 'u1'))).toMatch(/at least one approval/);
    expect(refusal(() => enforceMergeRules(approvedReview, cr({ author: approvedNow }), 'u1'))).toMatch(
      /approval/,
    );
    expect(refusal(() => enforceMergeRules(approvedReview, cr({ u2: approvedNow }), 'u1'))).toBeUndefined();
    // Every reviewer's latest review an approval (none at all passes).
    const all = one('require_all_reviews_approved');
    expect(refusal(() => enforceMergeRules(all, cr({}), 'u1'))).toBeUndefined();
    expect(refusal(() => enforceMergeRules(all, cr({ u2: approvedNow, u3: blocked }), 'u1'))).toMatch(/u3/);
    // Only the author merges.
    const author = one('require_author_to_merge');
    expect(refusal(() => enforceMergeRules(author, cr({}), 'author'))).toBeUndefined();
    expect(refusal(() => enforceMergeRules(author, cr({}), 'u1'))).toMatch(/author/);
    expect(refusal(() => enforceMergeRules(author, cr({}), null))).toMatch(/author/);
    // A subject.
    const subject = one('require_change_request_subject');
    expect(refusal(() => enforceMergeRules(subject, cr({}, ' '), 'u1'))).toMatch(/subject/);
    expect(refusal(() => enforceMergeRules(subject, cr({}), 'u1'))).toBeUndefined();
    // A description with text, and a change request based on the space's current revision.
    const described = one('require_change_request_description');
    expect(refusal(() => enforceMergeRules(described, cr({}, 'Edit', { described: false }), 'u1'))).toMatch(
      /description/,
    );
    expect(refusal(() => enforceMergeRules(described, cr({}), 'u1'))).toBeUndefined();
    const upToDate = one('require_up_to_date_change_request');
    expect(refusal(() => enforceMergeRules(upToDate, cr({}, 'Edit', { upToDate: false }), 'u1'))).toMatch(
      /behind/,
    );
    expect(refusal(() => enforceMergeRules(upToDate, cr({}), 'u1'))).toBeUndefined();
    for (const rule of ['require_agent_review', 'custom']) {
      expect(refusal(() => checkMergeRules({ type: 'rules', rules: [{ rule }] }))).toMatch(
        /^mergeRules\.rules\[0\]\.rule: must be one of /,
      );
    }
    expect(
      checkMergeRules({ type: 'rules', rules: [{ rule: 'require_author_to_merge', users: ['x'] }] }),
    ).toEqual({ type: 'rules', rules: [{ rule: 'require_author_to_merge' }] });
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
