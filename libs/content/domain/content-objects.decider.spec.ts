import { spec } from '@app/platform/domain/decider.testing';
import { contentObjectsDecider, contentObjectsStream } from './content-objects.decider';

const objects = spec(contentObjectsDecider);

describe('content objects decider', () => {
  it('names the stream after the space', () => {
    expect(contentObjectsStream('space1')).toBe('space-objects-space1');
  });

  it('stores the objects it is given, as they are', () => {
    objects
      .when({ type: 'StoreContentObjects', spaceId: 'space1', objects: { h1: '{"a":1}', h2: '"b"' } })
      .thenEmits([
        { type: 'ContentObjectsStored', data: { spaceId: 'space1', objects: { h1: '{"a":1}', h2: '"b"' } } },
      ]);
  });

  it('stores nothing for no objects', () => {
    objects.when({ type: 'StoreContentObjects', spaceId: 'space1', objects: {} }).thenNothing();
  });
});
