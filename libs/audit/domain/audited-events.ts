import type { AuditSubjects, Subject, SubjectReader } from '@app/platform/domain/audit-subject';
import { actionLabel, auditAction } from './actions';

/** The feature manifests as the audit log sees them: each one's audited events and their subjects. */
export interface AuditedFeature {
  name: string;
  audited?: AuditSubjects;
}

interface Audited {
  read: SubjectReader;
  action: string;
}

/**
 * Every audited event type of the product, how to read its subject and its action, from the feature
 * manifests (`auditSubjects` makes each feature list all the events of its aggregates, each under the
 * resource its action names). User events touch no organization and are not in it.
 */
export class AuditCatalog {
  private readonly audited = new Map<string, Audited>();
  /** Every action the audit log can hold, sorted by id: what `audit-event-actions` lists. */
  readonly actions: readonly { id: string; label: string }[];

  constructor(features: readonly AuditedFeature[]) {
    for (const feature of features) {
      for (const [resource, readers] of Object.entries(feature.audited ?? {})) {
        for (const [type, read] of Object.entries(readers)) {
          if (this.audited.has(type)) throw new Error(`audit: ${type} is declared twice`);
          this.audited.set(type, { read, action: auditAction(resource, type) });
        }
      }
    }
    this.actions = [...this.audited.values()]
      .map(({ action }) => action)
      .sort()
      .map((id) => ({ id, label: actionLabel(id) }));
  }

  get types(): string[] {
    return [...this.audited.keys()];
  }

  isAudited(type: string): boolean {
    return this.audited.has(type);
  }

  /** The subject of an audited event; `data` is the event's data, whose shape `type` fixes. */
  subjectOf(type: string, data: unknown): Subject {
    return this.entry(type).read(data);
  }

  /** The action of an audited event type (`member.role_changed`), as its feature declares its resource. */
  actionOf(type: string): string {
    return this.entry(type).action;
  }

  private entry(type: string): Audited {
    const audited = this.audited.get(type);
    if (!audited) throw new Error(`audit: ${type} is not an audited event`);
    return audited;
  }
}

export const AUDIT_CATALOG = Symbol('AUDIT_CATALOG');
