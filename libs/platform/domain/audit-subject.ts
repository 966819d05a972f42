/** What one domain event is about, as far as the event itself says. */
export interface Subject {
  /** Kind of resource (GitBook's `AuditEventTarget.type` is a free string): `space`, `member`, … */
  type: string;
  id: string;
  /** The organization the resource belonged to at the event, when the event names it. */
  organization?: string;
  /** Where a transfer takes the resource. */
  destination?: string;
  /** The resource's display label from this event on, when the event sets it. */
  label?: string;
  /** Resources that a transfer takes along to `destination` (what a collection holds). */
  carries?: readonly { type: string; id: string }[];
}

// biome-ignore lint/suspicious/noExplicitAny: the data of each event type narrows it
export type SubjectReader = (data: any) => Subject;
/**
 * A feature's audited events, by the resource their audit action names (`change_request`) and then by
 * event type (`ChangeRequestMerged`), each with how to read its subject.
 */
export type AuditSubjects = Readonly<Record<string, Readonly<Record<string, SubjectReader>>>>;

/** `change_request` is `ChangeRequest`. */
export type PascalOf<R extends string> = R extends `${infer Head}_${infer Tail}`
  ? `${Capitalize<Head>}${PascalOf<Tail>}`
  : Capitalize<R>;

/** The event types of `E` that name resource `R`: its PascalCase name, then a word. */
type TypesOf<E extends { type: string }, R extends string> = Extract<
  E['type'],
  `${PascalOf<R>}${Capitalize<string>}`
>;

type Readers<E extends { type: string; data: unknown }, R extends string> = {
  [T in TypesOf<E, R>]: (data: Extract<E, { type: T }>['data']) => Subject;
};

/** Event types no declared resource names: each must be under one. */
type Unlisted<E extends { type: string }, R extends string> = Exclude<E['type'], TypesOf<E, R>>;
/** Event types two declared resources both name (`team` and `team_member`): each must be under one. */
type Twice<E extends { type: string }, R extends string> = {
  [K in R]: TypesOf<E, K> & TypesOf<E, Exclude<R, K>>;
}[R];

/**
 * The audit subject of each event of a union, under the resource its audit action names:
 *
 *     auditSubjects<OrganizationEvent>()({
 *       organization: { OrganizationCreated: (d) => ({...}), ... },
 *       member: { MemberAdded: (d) => ({...}), MemberRoleChanged: (d) => ({...}), ... },
 *     })
 *
 * A resource is named in snake case and each event type starts with its PascalCase name (`member`:
 * `MemberRoleChanged`, audited as `member.role_changed`), so the resource of a type is stated once, where
 * the type is listed. The compiler refuses a type under a resource it does not start with, a type of the
 * union listed nowhere (so a new event of the feature's aggregates waits for its subject, and no change
 * inside an organization escapes the audit log) and a type two resources both name. (Called twice so
 * that the events are given and the resources inferred.)
 */
export function auditSubjects<E extends { type: string; data: unknown }>() {
  return <R extends Lowercase<string>>(
    resources: { [K in R]: Readers<E, K> } & ([Unlisted<E, R>] extends [never]
      ? unknown
      : { 'event types under no resource': Unlisted<E, R> }) &
      ([Twice<E, R>] extends [never] ? unknown : { 'event types under two resources': Twice<E, R> }),
  ): AuditSubjects => resources as AuditSubjects;
}
