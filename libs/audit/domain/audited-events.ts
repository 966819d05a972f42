import type { AuditSubjects, Subject, SubjectReader } from '@app/platform/domain/audit-subject';
import { actionLabel, auditAction } from './actions';

/** The feature manifests as the audit log sees them: each one's audited events and their subjects. */
export interface AuditedFeature {
  name: string;
  audited?: AuditSubjects;
}

/**
 * Every audited event type of the product and how to read its subject, from the feature manifests
 * (`auditSubjects` makes each feature list all the events of its aggregates). User events touch no
 * organization and are not in it.
 */
export class AuditCatalog {
  private readonly subjects = new Map<string, SubjectReader>();
  /** Every action the audit log can hold, sorted by id: what `audit-event-actions` lists. */
  readonly actions: readonly { id: string; label: string }[];

  constructor(features: readonly AuditedFeature[]) {
    for (const feature of features) {
      for (const readers of Object.values(feature.audited ?? {})) {
        for (const [type, reader] of Object.entries(readers)) {
          if (this.subjects.has(type)) throw new Error(`audit: ${type} is declared by two features`);
          this.subjects.set(type, reader);
        }
      }
    }
    this.actions = this.types
      .map(auditAction)
      .sort()
      .map((id) => ({ id, label: actionLabel(id) }));
  }

  get types(): string[] {
    return [...this.subjects.keys()];
  }

  isAudited(type: string): boolean {
    return this.subjects.has(type);
  }

  /** The subject of an audited event; `data` is the event's data, whose shape `type` fixes. */
  subjectOf(type: string, data: unknown): Subject {
    const reader = this.subjects.get(type);
    if (!reader) throw new Error(`audit: ${type} is not an audited event`);
    return reader(data);
  }
}

export const AUDIT_CATALOG = Symbol('AUDIT_CATALOG');
