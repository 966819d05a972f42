import { jsonEquals } from '@app/documents/tree/hash';

export type Merged<T> = { ok: true; value: T } | { ok: false };

/**
 * One value merged three ways: the side that changed it wins, two sides that changed it alike agree,
 * two sides that changed it differently conflict. `undefined` stands for absent (removed or never set).
 */
export function merge3<T>(
  base: T | undefined,
  ours: T | undefined,
  theirs: T | undefined,
): Merged<T | undefined> {
  if (jsonEquals(ours, base)) return { ok: true, value: theirs };
  if (jsonEquals(theirs, base) || jsonEquals(ours, theirs)) return { ok: true, value: ours };
  return { ok: false };
}

export interface RecordRules {
  /**
   * Fields merged as one unit, by the unit's name: a page's parent and position make one place, so a
   * merge never takes the parent from one side and the position from the other.
   */
  units?: Record<string, readonly string[]>;
  /** Fields where both sides' changes resolve to the later value (ISO times compare as strings). */
  latest?: readonly string[];
  /** Fields the caller merges itself (documents); ours' value is kept here. */
  skip?: readonly string[];
}

type Fields = Record<string, unknown>;

/**
 * Merges records field by field (or unit by unit). Answers the merged record and the names of the
 * fields (or units) that both sides changed differently; the record is only meaningful without them.
 */
export function mergeRecords(base: Fields, ours: Fields, theirs: Fields, rules: RecordRules = {}) {
  const unitOf = new Map<string, string>();
  for (const [unit, fields] of Object.entries(rules.units ?? {})) for (const f of fields) unitOf.set(f, unit);
  const value: Fields = {};
  const conflicts: string[] = [];
  const seen = new Set<string>();
  const fields = [...new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)])].sort();
  for (const field of fields) {
    const unit = unitOf.get(field);
    const name = unit ?? field;
    if (seen.has(name)) continue;
    seen.add(name);
    if (rules.skip?.includes(field)) {
      value[field] = ours[field];
      continue;
    }
    const members = unit ? (rules.units?.[unit] as readonly string[]) : [field];
    const pick = (record: Fields) => members.map((f) => record[f]);
    const merged = merge3(pick(base), pick(ours), pick(theirs));
    if (merged.ok) {
      members.forEach((f, i) => {
        value[f] = (merged.value as unknown[])[i];
      });
    } else if (rules.latest?.includes(field)) {
      value[field] = String(ours[field]) > String(theirs[field]) ? ours[field] : theirs[field];
    } else conflicts.push(name);
  }
  return { value, conflicts };
}
