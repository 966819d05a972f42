import { listJson } from './list-json';

describe('listJson', () => {
  const ada = { object: 'member', id: 'u1', user: { displayName: 'Ada “Countess” Lovelace 🦊' }, sso: false };
  const alan = { object: 'member', id: 'u2', lastSeenAt: undefined, spaces: 3, sites: 0 };

  it('writes what JSON.stringify writes, with or without a next page', () => {
    const lists = [
      { next: { page: 'WzUwLCIiXQ' }, count: 120, items: [ada, alan] },
      { count: 2, items: [alan, ada] },
      { count: 0, items: [] },
      { items: [ada], count: 1 },
    ];
    for (const list of lists) expect(listJson(list)).toBe(JSON.stringify(list));
  });

  it('writes an item that comes again as it did the first time', () => {
    const first = listJson({ count: 1, items: [ada] });
    expect(listJson({ count: 1, items: [ada] })).toBe(first);
    expect(listJson({ count: 2, items: [ada, ada] })).toBe(JSON.stringify({ count: 2, items: [ada, ada] }));
  });
});
