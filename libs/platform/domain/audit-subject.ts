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
export type AuditSubjects = Readonly<Record<string, SubjectReader>>;

/**
 * The subject of each event of a union. A feature declares `auditSubjects<ItsEvents>({...})`: the mapped
 * type makes a new event of its aggregates a compile error until it is listed, so no change inside an
 * organization escapes the audit log.
 */
export function auditSubjects<E extends { type: string; data: unknown }>(
  readers: {
    [T in E['type']]: (data: Extract<E, { type: T }>['data']) => Subject;
  },
): AuditSubjects {
  return readers as AuditSubjects;
}
