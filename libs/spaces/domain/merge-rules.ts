import { conflict, invalid } from '@app/platform/domain/decider';

/** GitBook's merge rules, as a space configures them (`mergeRules`). */
export type MergeRule =
  | { rule: 'require_specific_reviewers'; users: string[] }
  | { rule: 'require_one_of_specific_reviewers'; users: string[] }
  | { rule: 'allow_bypass'; users: string[] }
  | { rule: SimpleRule };

/** Rules without users. */
const SIMPLE_RULES = [
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_author_to_merge',
  'require_change_request_subject',
  'require_change_request_description',
  'require_up_to_date_change_request',
] as const;
type SimpleRule = (typeof SIMPLE_RULES)[number];
const isSimpleRule = (rule: string): rule is SimpleRule => (SIMPLE_RULES as readonly string[]).includes(rule);

export type MergeRulesConfiguration =
  | { type: 'inherit' }
  | { type: 'none' }
  | { type: 'rules'; rules: MergeRule[] };

/**
 * GitBook's `MergeRulesStandaloneConfiguration`: an organization's merge rules, which its spaces that
 * `inherit` follow. An organization has nothing to inherit from.
 */
export type StandaloneMergeRules = Exclude<MergeRulesConfiguration, { type: 'inherit' }>;

export type ReviewStatus = 'approved' | 'changes-requested';

/** A reviewer's latest review: what they said and of which revision. */
export interface LatestReview {
  status: ReviewStatus;
  revision: string;
}

const RULES_WITH_USERS = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'];
/**
 * GitBook's rules this project enforces. Refused: `custom` (GitBook's expression language) and
 * `require_agent_review` (no review agent here).
 */
export const MERGE_RULES = [...RULES_WITH_USERS, ...SIMPLE_RULES];
const RULES: readonly string[] = MERGE_RULES;

/**
 * A configuration as given over the API, checked: `custom` rules (GitBook evaluates an expression
 * language of its own) are refused rather than stored and never enforced.
 */
export function checkMergeRules(value: unknown): MergeRulesConfiguration {
  const config = value as { type?: unknown; rules?: unknown };
  if (typeof value !== 'object' || value === null) throw invalid('mergeRules: must be an object');
  if (config.type === 'inherit' || config.type === 'none') return { type: config.type };
  if (config.type !== 'rules' || !Array.isArray(config.rules) || config.rules.length > 20)
    throw invalid('mergeRules: type must be inherit, none, or rules with at most 20 rules');
  const rules = config.rules.map((rule, i): MergeRule => {
    const r = rule as { rule?: unknown; users?: unknown };
    if (typeof rule !== 'object' || rule === null || typeof r.rule !== 'string' || !RULES.includes(r.rule))
      throw invalid(`mergeRules.rules[${i}].rule: must be one of ${RULES.join(', ')}`);
    if (isSimpleRule(r.rule)) return { rule: r.rule };
    const users = r.users;
    if (
      !Array.isArray(users) ||
      users.length > 100 ||
      users.some((u) => typeof u !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(u))
    )
      throw invalid(`mergeRules.rules[${i}].users: must be at most 100 user ids`);
    return {
      rule: r.rule as Exclude<MergeRule['rule'], SimpleRule>,
      users: [...new Set(users as string[])],
    };
  });
  return { type: 'rules', rules };
}

/** An organization's merge rules as given over the API, checked as a space's are, `inherit` refused. */
export function checkStandaloneMergeRules(value: unknown): StandaloneMergeRules {
  if ((value as { type?: unknown } | null)?.type === 'inherit')
    throw invalid('mergeRules: type must be none, or rules with at most 20 rules (inherit is for spaces)');
  return checkMergeRules(value) as StandaloneMergeRules;
}

/**
 * The rules a merge into a space follows: its own, or when it inherits (absent: it does) its
 * organization's, which are none until the organization sets some.
 */
export function effectiveMergeRules(
  space: MergeRulesConfiguration | undefined,
  organization: StandaloneMergeRules | undefined,
): StandaloneMergeRules {
  if (space && space.type !== 'inherit') return space;
  return organization ?? { type: 'none' };
}

/** What merge rules look at: each reviewer's latest review, the revision to merge and its author. */
export interface Reviewed {
  reviews: Readonly<Record<string, LatestReview>>;
  revision: { id: string };
  createdBy: string | null;
  subject: string;
  /** Its description has text. */
  described: boolean;
  /** Based on the space's current revision: nothing merged into the space since it was last updated from it. */
  upToDate: boolean;
}

/**
 * Whether `actor` may merge now, under `rules` (the space's, or its organization's: `effectiveMergeRules`):
 * every rule must pass, counting only approvals of the change request's current revision (a review of
 * an older revision is outdated) by someone other than its author, unless `actor` is allowed to bypass.
 * Throws a conflict naming the rule.
 */
export function enforceMergeRules(config: MergeRulesConfiguration, cr: Reviewed, actor: string | null): void {
  if (config.type !== 'rules') return;
  const { reviews, revision, createdBy, subject, described, upToDate } = cr;
  const approved = (user: string) =>
    user !== createdBy && reviews[user]?.status === 'approved' && reviews[user].revision === revision.id;
  const bypass = config.rules.some(
    (r) => r.rule === 'allow_bypass' && actor !== null && r.users.includes(actor),
  );
  if (bypass) return;
  for (const rule of config.rules) {
    switch (rule.rule) {
      case 'require_at_least_one_review':
      case 'require_at_least_one_approved_review':
        if (!Object.keys(reviews).some(approved))
          throw conflict('merge rules: at least one approval of the latest revision is required');
        break;
      case 'require_all_reviews_approved': {
        const pending = Object.keys(reviews).filter((user) => reviews[user].status !== 'approved');
        if (pending.length > 0)
          throw conflict(
            `merge rules: every review must be an approval; changes requested by ${pending.join(', ')}`,
          );
        break;
      }
      case 'require_author_to_merge':
        if (actor === null || actor !== createdBy)
          throw conflict('merge rules: only the author of the change request may merge it');
        break;
      case 'require_change_request_subject':
        if (subject.trim() === '') throw conflict('merge rules: the change request needs a subject');
        break;
      case 'require_change_request_description':
        if (!described) throw conflict('merge rules: the change request needs a description');
        break;
      case 'require_up_to_date_change_request':
        if (!upToDate)
          throw conflict(
            'merge rules: the change request must be updated from the space first (it is behind)',
          );
        break;
      case 'require_specific_reviewers': {
        const missing = rule.users.filter((u) => !approved(u));
        if (missing.length > 0)
          throw conflict(`merge rules: approvals still required from ${missing.join(', ')}`);
        break;
      }
      case 'require_one_of_specific_reviewers':
        if (!rule.users.some(approved))
          throw conflict(`merge rules: an approval is required from one of ${rule.users.join(', ')}`);
        break;
      case 'allow_bypass':
        break;
    }
  }
}
