import { KeptReads } from './kept-reads';
import { announcedChanges } from './view-changes.testing';

/** Kept reads of word lists from the `words` view, weighed by length, counting the reads made. */
function setup({ active = true, capacity = 10 } = {}) {
  const { changes, announce } = announcedChanges(active);
  const kept = new KeptReads<string[]>(changes, {
    collections: ['words'],
    capacity,
    weight: (list) => list.length,
  });
  const reads: string[] = [];
  const read = (key: string, size = 1) => {
    reads.push(key);
    return Promise.resolve(Array.from({ length: size }, () => key));
  };
  return { kept, announce, reads, read };
}

describe('KeptReads', () => {
  it('shares one read among concurrent requests and keeps its value until its views change', async () => {
    const { kept, announce, reads, read } = setup();
    const [a, b] = await Promise.all([kept.of('x', () => read('x')), kept.of('x', () => read('x'))]);
    expect(a).toBe(b);
    expect(await kept.of('x', () => read('x'))).toBe(a);
    expect(kept.peek('x')).toBe(a);
    expect(kept.holds('x', a)).toBe(true);
    expect(reads).toEqual(['x']);

    announce(new Set(['other']));
    expect(await kept.of('x', () => read('x'))).toBe(a);
    announce(new Set(['words']));
    expect(kept.peek('x')).toBeUndefined();
    expect(await kept.of('x', () => read('x'))).not.toBe(a);
    announce('all');
    await kept.of('x', () => read('x'));
    expect(reads).toEqual(['x', 'x', 'x']);
  });

  it('does not keep a value read while a change was announced', async () => {
    const { kept, announce, reads } = setup();
    let answer: (value: string[]) => void = () => {};
    const pending = kept.of('x', () => new Promise<string[]>((resolve) => (answer = resolve)));
    announce(new Set(['words']));
    answer(['before the change']);
    const value = await pending;
    expect(kept.holds('x', value)).toBe(false);
    // A request after the change does not join the read that began before it.
    await kept.of('x', () => Promise.resolve(['after']));
    expect(kept.peek('x')).toEqual(['after']);
    expect(reads).toEqual([]);
  });

  it('keeps nothing while changes are not announced, and lets a failed read be retried', async () => {
    const { kept, reads, read } = setup({ active: false });
    await kept.of('x', () => read('x'));
    await kept.of('x', () => read('x'));
    expect(kept.peek('x')).toBeUndefined();
    expect(reads).toEqual(['x', 'x']);

    const live = setup();
    await expect(live.kept.of('y', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await live.kept.of('y', () => live.read('y'))).toEqual(['y']);
  });

  it('drops the values kept first once their weight passes the capacity', async () => {
    const { kept, read } = setup({ capacity: 10 });
    await kept.of('a', () => read('a', 4));
    await kept.of('b', () => read('b', 4));
    await kept.of('c', () => read('c', 4));
    expect(['a', 'b', 'c'].map((key) => kept.peek(key)?.length)).toEqual([undefined, 4, 4]);
    // A value above the capacity alone is kept alone.
    await kept.of('d', () => read('d', 12));
    expect(['b', 'c', 'd'].map((key) => kept.peek(key)?.length)).toEqual([undefined, undefined, 12]);
  });
});
