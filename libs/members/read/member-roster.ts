import { USERS, type UserDoc } from '@app/identity/read/identity.projection';
import { MEMBERS, type MemberDoc } from '@app/platform/auth/access';
import { memberKey } from '@app/platform/auth/member-key';
import { KeptReads } from '@app/platform/projector/kept-reads';
import type { ViewChanges } from '@app/platform/projector/view-changes';
import type { ReadStore } from '@app/platform/readstore/read-store.port';

/** More members than an organization has: a roster reads them in one query. */
export const ROSTER_LIMIT = 50_000;

/** Members held in memory over every kept roster: a bound on memory (the rosters kept first go first). */
const MAX_KEPT_MEMBERS = 100_000;

/** Substrings up to this many characters are indexed whole; a longer search is checked on candidates. */
const GRAM = 3;

export interface RosterEntry {
  member: MemberDoc;
  user: UserDoc | null;
}

const byJoinedAt = (a: MemberDoc, b: MemberDoc) =>
  a.joinedAt < b.joinedAt ? -1 : a.joinedAt > b.joinedAt ? 1 : a.userId < b.userId ? -1 : 1;

/**
 * An organization's members with their users, oldest first (ties by user id), and what a search needs:
 * display names and emails in lower case and, built on the first search of a kept roster, every
 * substring of up to GRAM characters of them mapped to the members that have it. A search of up to GRAM
 * characters is then one lookup, a longer one the check of the members that have its rarest
 * GRAM-character piece (those lacking one of its common pieces skipped by a bit test), instead of the
 * check of every member.
 */
export class Roster {
  /** Each entry's key in the `members` view (`memberKey`), made once rather than per request. */
  readonly keys: readonly string[];
  private readonly names: string[];
  private readonly emails: string[];
  private grams?: GramIndex;

  constructor(readonly entries: readonly RosterEntry[]) {
    this.keys = entries.map((e) => memberKey(e.member.organization, e.member.userId));
    this.names = entries.map((e) => e.user?.displayName.toLowerCase() ?? '');
    this.emails = entries.map((e) => e.user?.email.toLowerCase() ?? '');
  }

  /**
   * Indexes of the entries whose user's display name or email contains `search` (any case), in roster
   * order; not to be changed. `indexed`: build the index if missing (a roster kept for later searches),
   * else scan.
   */
  search(search: string, indexed: boolean): readonly number[] {
    const needle = search.toLowerCase();
    if (needle.length === 0 || (!indexed && !this.grams)) {
      const out: number[] = [];
      for (let i = 0; i < this.entries.length; i++) if (this.matches(i, needle)) out.push(i);
      return out;
    }
    const { postings, dense } = this.index();
    if (needle.length <= GRAM) return postings.get(gramKey(needle, 0, needle.length)) ?? [];
    let rarest: readonly number[] = [];
    for (let at = 0; at + GRAM <= needle.length; at++) {
      const posting = postings.get(gramKey(needle, at, GRAM));
      if (!posting) return [];
      if (at === 0 || posting.length < rarest.length) rarest = posting;
    }
    // A member that has the needle has each of its pieces: the common ones' bits rule most candidates out.
    const sets: Int32Array[] = [];
    for (let at = 0; at + GRAM <= needle.length; at++) {
      const key = gramKey(needle, at, GRAM);
      const set = postings.get(key) === rarest ? undefined : dense.get(key);
      if (set) sets.push(set);
    }
    const out: number[] = [];
    candidates: for (const i of rarest) {
      for (const set of sets) if ((set[i >> 5] & (1 << (i & 31))) === 0) continue candidates;
      if (this.matches(i, needle)) out.push(i);
    }
    return out;
  }

  /** Indexes of the entries (of `among`, or all) whose member passes `keep`, in order. */
  where(among: readonly number[] | undefined, keep: (entry: RosterEntry) => boolean): number[] {
    const out: number[] = [];
    if (among) {
      for (const i of among) if (keep(this.entries[i])) out.push(i);
    } else {
      for (let i = 0; i < this.entries.length; i++) if (keep(this.entries[i])) out.push(i);
    }
    return out;
  }

  private matches(i: number, needle: string): boolean {
    return (
      this.entries[i].user !== null && (this.names[i].includes(needle) || this.emails[i].includes(needle))
    );
  }

  private index(): GramIndex {
    if (this.grams) return this.grams;
    const postings = new Map<number, number[]>();
    for (let i = 0; i < this.entries.length; i++) {
      if (this.entries[i].user === null) continue;
      for (const text of [this.names[i], this.emails[i]]) {
        for (let n = 1; n <= GRAM; n++) {
          for (let at = 0; at + n <= text.length; at++) {
            const key = gramKey(text, at, n);
            const list = postings.get(key);
            // Members are added in order: one already listed for this substring is its last.
            if (!list) postings.set(key, [i]);
            else if (list[list.length - 1] !== i) list.push(i);
          }
        }
      }
    }
    // A bit set takes at most twice the memory of the list it stands for.
    const dense = new Map<number, Int32Array>();
    const least = Math.max(MIN_DENSE, this.entries.length >> 6);
    for (const [key, list] of postings) {
      if (key < LONGEST_KEYS || list.length < least) continue;
      const set = new Int32Array((this.entries.length + 31) >> 5);
      for (const i of list) set[i >> 5] |= 1 << (i & 31);
      dense.set(key, set);
    }
    this.grams = { postings, dense };
    return this.grams;
  }
}

/**
 * Members (indexes, ascending) by substring of up to GRAM characters, keyed by `gramKey`; and, for the
 * GRAM-character substrings many members have, the same members as bits (bit `i % 32` of word `i >> 5`).
 */
interface GramIndex {
  postings: Map<number, number[]>;
  dense: Map<number, Int32Array>;
}

/** Substrings that fewer members have are not worth a bit set: the check of each candidate costs less. */
const MIN_DENSE = 32;

/** The `n` (1 to 3) UTF-16 code units of `text` at `at` as one number: distinct per length and units. */
function gramKey(text: string, at: number, n: number): number {
  let key = n;
  for (let k = 0; k < n; k++) key = key * 65_536 + text.charCodeAt(at + k);
  return key;
}

/** The least `gramKey` of GRAM characters: the keys of shorter substrings are below it. */
const LONGEST_KEYS = GRAM * 65_536 ** GRAM;

/** Rosters of organizations, kept until the members or users views change (see `KeptReads`). */
export class Rosters {
  private readonly kept: KeptReads<Roster>;

  constructor(
    private readonly views: ReadStore,
    changes: ViewChanges | undefined,
  ) {
    this.kept = new KeptReads(changes, {
      collections: [MEMBERS, USERS],
      capacity: MAX_KEPT_MEMBERS,
      weight: (roster) => roster.entries.length,
    });
  }

  /** The roster of `organization`, and whether it is kept (so worth indexing). */
  async of(organization: string): Promise<{ roster: Roster; kept: boolean }> {
    const roster = await this.kept.of(organization, () => this.read(organization));
    return { roster, kept: this.kept.holds(organization, roster) };
  }

  private async read(organization: string): Promise<Roster> {
    const { items } = await this.views.find(MEMBERS, {
      where: { organization },
      orderBy: 'joinedAt',
      limit: ROSTER_LIMIT,
    });
    const entries = await Promise.all(
      items.map(async (member) => ({ member, user: await this.views.get(USERS, member.userId) })),
    );
    // The store breaks ties of the sort by document id; a roster by user id, as lists always have.
    entries.sort((a, b) => byJoinedAt(a.member, b.member));
    return new Roster(entries);
  }
}
