import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import type { Write } from './read-store.port';
import {
  forEachSerialized,
  type SerializedBatch,
  type SerializedWrite,
  serializeBatch,
} from './serialized-batch';

describe('SerializedBatch', () => {
  const writes: Write[] = [
    { collection: 'spaces', id: 's1', doc: { id: 's1', org: 'a', title: 'One', tags: ['x'] } },
    { collection: 'audit', id: 'e1', doc: { id: 'e1', org: 'a', key: 'k1' }, created: true },
    { collection: 'spaces', id: 's2', doc: null },
    { collection: 'spaces', id: 's3', doc: { id: 'other', org: { nested: true }, title: null } },
  ];

  /** The batch as the other side of a thread gets it. */
  function acrossThreads(batch: SerializedBatch): SerializedBatch {
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(batch);
    const received = receiveMessageOnPort(port2)?.message as SerializedBatch;
    port1.close();
    return received;
  }

  function read(batch: SerializedBatch): SerializedWrite[] {
    const seen: SerializedWrite[] = [];
    forEachSerialized(batch, (write) => seen.push(write));
    return seen;
  }

  it('carries each write in order, its document as JSON with the id it is written under', () => {
    const seen = read(acrossThreads(serializeBatch(writes)));
    expect(seen.map(({ collection, id, created }) => [collection, id, created])).toEqual([
      ['spaces', 's1', undefined],
      ['audit', 'e1', true],
      ['spaces', 's2', undefined],
      ['spaces', 's3', undefined],
    ]);
    expect(seen.map((write) => (write.json === null ? null : JSON.parse(write.json)))).toEqual([
      { id: 's1', org: 'a', title: 'One', tags: ['x'] },
      { id: 'e1', org: 'a', key: 'k1' },
      null,
      { id: 's3', org: { nested: true }, title: null },
    ]);
  });

  it('reads field values from the JSON, parsing it once per write', () => {
    const batch = serializeBatch(writes);
    expect(batch.collections).toEqual(['spaces', 'audit']);
    const [s1, e1, , s3] = read(acrossThreads(batch));
    const parse = jest.spyOn(JSON, 'parse');
    expect([s1.value('org'), s1.value('missing'), s1.value('title'), s1.value('tags')]).toEqual([
      'a',
      undefined,
      'One',
      ['x'],
    ]);
    expect([e1.value('key'), e1.value('org')]).toEqual(['k1', 'a']);
    expect([s3.value('org'), s3.value('title')]).toEqual([{ nested: true }, null]);
    expect(parse).toHaveBeenCalledTimes(3);
    parse.mockRestore();
  });
});
