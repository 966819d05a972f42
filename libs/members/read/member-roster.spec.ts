import { USERS, type UserDoc } from '@app/identity/read/identity.projection';
import { MEMBERS, type MemberDoc } from '@app/platform/auth/access';
import { announcedChanges } from '@app/platform/projector/view-changes.testing';
import type { ReadStore } from '@app/platform/readstore/read-store.port';
import { Roster, type RosterEntry, Rosters } from './member-roster';

const NAMES = [
  'Ada Lovelace',
  'Alan Turing',
  'Maria Márquez',
  'Marek Nowak',
  'Émile Zola',
  'İsmail Kaya',
  'Zoë 🦊 Fox',
];

function entry(i: number, user: Partial<UserDoc> | null): RosterEntry {
  const member: MemberDoc = {
    id: `org:u${i}`,
    organization: 'org',
    userId: `u${String(i).padStart(3, '0')}`,
    role: 'read',
    joinedAt: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
  };
  return {
    member,
    user: user && { id: member.userId, createdAt: member.joinedAt, displayName: '', email: '', ...user },
  };
}

const entries = [
  ...NAMES.map((name, i) =>
    entry(i, { displayName: name, email: `${name.split(' ')[0].toLowerCase()}${i}@example.com` }),
  ),
  entry(NAMES.length, null),
  ...Array.from({ length: 200 }, (_, i) =>
    entry(NAMES.length + 1 + i, { displayName: `Member ${i} Mar${i % 7}`, email: `m${i}@corp.example` }),
  ),
];

/** The search as a plain scan: every entry whose user's name or email contains the needle, any case. */
function scan(search: string): number[] {
  const needle = search.toLowerCase();
  return entries.flatMap((e, i) =>
    e.user &&
    (e.user.displayName.toLowerCase().includes(needle) || e.user.email.toLowerCase().includes(needle))
      ? [i]
      : [],
  );
}

describe('Roster', () => {
  const needles = [
    '',
    'a',
    'M',
    'ma',
    'mar',
    'MAR3',
    'maria',
    'márquez',
    'arqu',
    'ember 1',
    'member 19',
    '@corp',
    'example.com',
    'i̇smail',
    'İsmail',
    '🦊',
    'zoë 🦊',
    'nobody',
    'u001',
    'zz',
  ];

  it('finds through its substring index what a scan of every member finds, in roster order', () => {
    const indexed = new Roster(entries);
    const scanned = new Roster(entries);
    for (const needle of needles) {
      expect([...indexed.search(needle, true)]).toEqual(scan(needle));
      expect([...scanned.search(needle, false)]).toEqual(scan(needle));
    }
    // Some needles find many members, some one, some none.
    expect(scan('mar').length).toBeGreaterThan(100);
    expect(scan('maria')).toHaveLength(1);
    expect(scan('nobody')).toHaveLength(0);
  });

  it('agrees with a scan where many members share the pieces of a search', () => {
    // Names from few letters: most pieces of three letters are common (checked as bits), some rare.
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const word = (length: number) => Array.from({ length }, () => 'abcde'[Math.floor(next() * 5)]).join('');
    const crowd = Array.from({ length: 1500 }, (_, i) =>
      entry(i, { displayName: `${word(4)} ${word(6)}`, email: `${word(5)}@${word(3)}.example` }),
    );
    const roster = new Roster(crowd);
    const scanCrowd = (needle: string) =>
      crowd.flatMap((e, i) =>
        e.user && (e.user.displayName.toLowerCase().includes(needle) || e.user.email.includes(needle))
          ? [i]
          : [],
      );
    for (let k = 0; k < 300; k++) {
      const text = crowd[Math.floor(next() * crowd.length)].user?.displayName ?? '';
      const at = Math.floor(next() * 4);
      const needle = text.slice(at, at + 4 + Math.floor(next() * 5));
      expect([...roster.search(needle.toUpperCase(), true)]).toEqual(scanCrowd(needle));
    }
    expect([...roster.search('abcde@', true)]).toEqual(scanCrowd('abcde@'));
  });

  it('leaves members without a user out, and filters by member', () => {
    const roster = new Roster(entries);
    expect(roster.search('', true)).not.toContain(NAMES.length);
    const some = roster.search('ada', true);
    expect(roster.where(some, ({ member }) => member.userId === 'u000')).toEqual([0]);
    expect(roster.where(undefined, ({ user }) => user === null)).toEqual([NAMES.length]);
  });
});

describe('Rosters', () => {
  /** A store of one organization's members, counting the member queries it answers. */
  function setup(active = true) {
    const members = entries.filter((e) => e.user).map((e) => e.member);
    const users = new Map(entries.flatMap((e) => (e.user ? [[e.user.id, e.user]] : [])));
    const reads = { count: 0 };
    const views = {
      find: async () => {
        reads.count++;
        return { items: [...members].reverse(), count: members.length };
      },
      get: async (_collection: string, id: string) => users.get(id) ?? null,
    } as unknown as ReadStore;
    const { changes, announce } = announcedChanges(active);
    return { rosters: new Rosters(views, changes), reads, announce };
  }

  it('reads a roster once for concurrent requests, keeps it until members or users change', async () => {
    const { rosters, reads, announce } = setup();
    const [a, b] = await Promise.all([rosters.of('org'), rosters.of('org')]);
    expect(reads.count).toBe(1);
    expect(a.roster).toBe(b.roster);
    expect(a.kept && b.kept).toBe(true);
    // In the order of joining, ties by user id, whatever order the store answered in.
    expect(a.roster.entries.map((e) => e.member.userId)).toEqual(
      [...a.roster.entries.map((e) => e.member.userId)].sort((x, y) => {
        const [ex, ey] = [x, y].map(
          (id) => entries.find((e) => e.member.userId === id)?.member.joinedAt ?? '',
        );
        return ex < ey ? -1 : ex > ey ? 1 : x < y ? -1 : 1;
      }),
    );
    await rosters.of('org');
    expect(reads.count).toBe(1);
    announce(new Set(['spaces']));
    await rosters.of('org');
    expect(reads.count).toBe(1);
    announce(new Set([USERS]));
    await rosters.of('org');
    expect(reads.count).toBe(2);
    announce(new Set([MEMBERS]));
    announce('all');
    expect((await rosters.of('org')).kept).toBe(true);
    expect(reads.count).toBe(3);
  });

  it('keeps nothing while changes are not announced', async () => {
    const { rosters, reads } = setup(false);
    expect((await rosters.of('org')).kept).toBe(false);
    await rosters.of('org');
    expect(reads.count).toBe(2);
  });
});
