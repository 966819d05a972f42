import { readFileSync } from 'node:fs';
import { DAY_MS, fold } from '@app/platform/domain/decider';
import { spec } from '@app/platform/domain/decider.testing';
import { SPACE_LANGUAGES } from './language';
import {
  SPACE_RETENTION_MS,
  type SpaceCommand,
  type SpaceEvent,
  type SpaceSettings,
  spaceDecider,
  spaceStream,
  visibilityIn,
} from './space.decider';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

const settings: SpaceSettings = { title: 'Handbook', emoji: '📘', editMode: 'live', defaultLevel: 'inherit' };

type CreateSpace = Extract<SpaceCommand, { type: 'CreateSpace' }>;

const createSpace = (overrides: Partial<CreateSpace> = {}): CreateSpace => ({
  type: 'CreateSpace',
  spaceId: 'space1',
  organization: 'org1',
  parent: 'coll1',
  settings,
  revision: 'rev1',
  position: 0,
  at: t0,
  ...overrides,
});

type SpaceCreated = Extract<SpaceEvent, { type: 'SpaceCreated' }>;

const spaceCreated = (data: Partial<SpaceCreated['data']> = {}): SpaceCreated => ({
  type: 'SpaceCreated',
  data: {
    id: 'space1',
    organization: 'org1',
    parent: 'coll1',
    ...settings,
    visibility: 'in-collection',
    revision: 'rev1',
    position: 0,
    createdAt: iso(t0),
    ...data,
  },
});

const topLevelCreated = spaceCreated({ parent: null, visibility: 'private' });

const spaceDeleted = (at: number): SpaceEvent => ({
  type: 'SpaceDeleted',
  data: { spaceId: 'space1', deletedAt: iso(at), purgeAfter: iso(at + SPACE_RETENTION_MS) },
});

const spaceRestored = (at: number): SpaceEvent => ({
  type: 'SpaceRestored',
  data: { spaceId: 'space1', restoredAt: iso(at) },
});

const spacePurged = (at: number): SpaceEvent => ({
  type: 'SpacePurged',
  data: { spaceId: 'space1', purgedAt: iso(at) },
});

const deletedAt = t0 + DAY_MS;
const purgeAfter = deletedAt + SPACE_RETENTION_MS;

const active = [spaceCreated()];
const deleted = [spaceCreated(), spaceDeleted(deletedAt)];
const purged = [...deleted, spacePurged(purgeAfter)];

const space = spec(spaceDecider);

describe('space decider', () => {
  it('keeps deleted spaces restorable for exactly 7 days', () => {
    expect(SPACE_RETENTION_MS).toBe(7 * 24 * 60 * 60 * 1000);
  });

  it("knows exactly GitBook's languages (`TranslationLanguage`)", () => {
    const spec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8'));
    expect([...SPACE_LANGUAGES]).toEqual(spec.components.schemas.TranslationLanguage.enum);
  });

  it('names the stream after the space', () => {
    expect(spaceStream('space1')).toBe('space-space1');
  });

  describe('visibilityIn', () => {
    it('turns in-collection into private at the top level', () => {
      expect(visibilityIn(null, 'in-collection')).toBe('private');
    });

    it('keeps in-collection inside a collection', () => {
      expect(visibilityIn('coll1', 'in-collection')).toBe('in-collection');
    });

    it.each(['public', 'unlisted', 'share-link', 'visitor-auth', 'private'] as const)(
      'keeps %s wherever the space is',
      (visibility) => {
        expect(visibilityIn(null, visibility)).toBe(visibility);
        expect(visibilityIn('coll1', visibility)).toBe(visibility);
      },
    );
  });

  describe('CreateSpace', () => {
    it('creates a space inside a collection with in-collection visibility', () => {
      const state = space.given([]).when(createSpace()).thenEmits([spaceCreated()]);
      expect(state).toStrictEqual({
        status: 'active',
        id: 'space1',
        organization: 'org1',
        parent: 'coll1',
        ...settings,
        visibility: 'in-collection',
        revision: 'rev1',
      });
    });

    it('creates a top-level space as private', () => {
      const state = space.when(createSpace({ parent: null })).thenEmits([topLevelCreated]);
      expect(state).toMatchObject({ status: 'active', parent: null, visibility: 'private' });
    });

    it('records the space it was duplicated from', () => {
      space
        .when(createSpace({ duplicatedFrom: 'space0' }))
        .thenEmits([spaceCreated({ duplicatedFrom: 'space0' })]);
    });

    it('keeps position, creation time, origin and content root out of the state', () => {
      const state = space
        .when(createSpace({ duplicatedFrom: 'space0', position: 3, root: 'root0' }))
        .thenEmits([spaceCreated({ duplicatedFrom: 'space0', position: 3, root: 'root0' })]);
      expect(state).not.toHaveProperty('position');
      expect(state).not.toHaveProperty('createdAt');
      expect(state).not.toHaveProperty('duplicatedFrom');
      expect(state).not.toHaveProperty('root');
    });

    it('records the content a duplicate starts with: its first revision holds the given root', () => {
      space
        .when(createSpace({ duplicatedFrom: 'space0', root: 'root0' }))
        .thenEmits([spaceCreated({ duplicatedFrom: 'space0', root: 'root0' })]);
    });

    it('creates a space in a language, which its state keeps', () => {
      const state = space
        .when(createSpace({ settings: { ...settings, language: 'fr' } }))
        .thenEmits([spaceCreated({ language: 'fr' })]);
      expect(state).toMatchObject({ status: 'active', language: 'fr' });
    });

    it('rejects creating a space in a language GitBook does not list', () => {
      space
        .when(createSpace({ settings: { ...settings, language: 'klingon' as never } }))
        .thenThrows('invalid', /language/);
    });

    it('rejects creating a space that already exists', () => {
      space
        .given(active)
        .when(createSpace())
        .thenThrows('conflict', /already exists/);
    });

    it('rejects creating a space that is deleted', () => {
      space
        .given(deleted)
        .when(createSpace())
        .thenThrows('conflict', /already exists/);
    });

    it('rejects creating a space that was purged', () => {
      space
        .given(purged)
        .when(createSpace())
        .thenThrows('conflict', /already exists/);
    });
  });

  describe('UpdateSpace', () => {
    const at = t0 + 1000;

    it('emits only the fields that change', () => {
      const state = space
        .given(active)
        .when({ type: 'UpdateSpace', changes: { title: 'Guide', emoji: '📘', editMode: 'live' }, at })
        .thenEmits([
          {
            type: 'SpaceUpdated',
            data: { spaceId: 'space1', changes: { title: 'Guide' }, updatedAt: iso(at) },
          },
        ]);
      expect(state).toMatchObject({ status: 'active', title: 'Guide', emoji: '📘', editMode: 'live' });
    });

    it('ignores fields given as undefined', () => {
      space
        .given(active)
        .when({ type: 'UpdateSpace', changes: { title: undefined, emoji: '🚀' }, at })
        .thenEmits([
          { type: 'SpaceUpdated', data: { spaceId: 'space1', changes: { emoji: '🚀' }, updatedAt: iso(at) } },
        ]);
    });

    it('can set the default level to null (guest)', () => {
      const state = space
        .given(active)
        .when({ type: 'UpdateSpace', changes: { defaultLevel: null }, at })
        .thenEmits([
          {
            type: 'SpaceUpdated',
            data: { spaceId: 'space1', changes: { defaultLevel: null }, updatedAt: iso(at) },
          },
        ]);
      expect(state).toMatchObject({ defaultLevel: null });
    });

    it('emits nothing when no field changes', () => {
      space
        .given(active)
        .when({ type: 'UpdateSpace', changes: { ...settings }, at })
        .thenNothing();
    });

    it('emits nothing for empty changes', () => {
      space.given(active).when({ type: 'UpdateSpace', changes: {}, at }).thenNothing();
    });

    it('locks a live space', () => {
      const state = space
        .given(active)
        .when({ type: 'UpdateSpace', changes: { editMode: 'locked' }, at })
        .thenEmits([
          {
            type: 'SpaceUpdated',
            data: { spaceId: 'space1', changes: { editMode: 'locked' }, updatedAt: iso(at) },
          },
        ]);
      expect(state).toMatchObject({ editMode: 'locked' });
    });

    it('unlocks a locked space', () => {
      const locked: SpaceEvent = {
        type: 'SpaceUpdated',
        data: { spaceId: 'space1', changes: { editMode: 'locked' }, updatedAt: iso(at) },
      };
      const state = space
        .given([...active, locked])
        .when({ type: 'UpdateSpace', changes: { editMode: 'live' }, at: at + 1000 })
        .thenEmits([
          {
            type: 'SpaceUpdated',
            data: { spaceId: 'space1', changes: { editMode: 'live' }, updatedAt: iso(at + 1000) },
          },
        ]);
      expect(state).toMatchObject({ editMode: 'live' });
    });

    it('emits nothing when locking an already locked space', () => {
      const locked: SpaceEvent = {
        type: 'SpaceUpdated',
        data: { spaceId: 'space1', changes: { editMode: 'locked' }, updatedAt: iso(at) },
      };
      space
        .given([...active, locked])
        .when({ type: 'UpdateSpace', changes: { editMode: 'locked' }, at: at + 1000 })
        .thenNothing();
    });

    it('sets the language of a space that had none', () => {
      const state = space
        .given(active)
        .when({ type: 'UpdateSpace', changes: { language: 'fr' }, at })
        .thenEmits([
          {
            type: 'SpaceUpdated',
            data: { spaceId: 'space1', changes: { language: 'fr' }, updatedAt: iso(at) },
          },
        ]);
      expect(state).toMatchObject({ language: 'fr' });
    });

    it('emits nothing when the language is already the one given', () => {
      space
        .given([spaceCreated({ language: 'de' })])
        .when({ type: 'UpdateSpace', changes: { language: 'de' }, at })
        .thenNothing();
    });

    it('rejects a language GitBook does not list', () => {
      space
        .given(active)
        .when({ type: 'UpdateSpace', changes: { language: 'EN' as never }, at })
        .thenThrows('invalid', /language/);
    });

    describe('icon (GitBook: an emoji, an icon, or null for both)', () => {
      const icon = 'https://example.com/icon.png';
      const updated = (changes: object): SpaceEvent => ({
        type: 'SpaceUpdated',
        data: { spaceId: 'space1', changes, updatedAt: iso(at) },
      });

      it('sets an icon in place of the emoji', () => {
        const state = space
          .given(active)
          .when({ type: 'UpdateSpace', changes: { icon }, at })
          .thenEmits([updated({ icon, emoji: '' })]);
        expect(state).toMatchObject({ icon, emoji: '' });
      });

      it('removes the icon when an emoji is set', () => {
        space
          .given([spaceCreated(), updated({ icon, emoji: '' })])
          .when({ type: 'UpdateSpace', changes: { emoji: '🚀' }, at })
          .thenEmits([updated({ emoji: '🚀', icon: null })]);
      });

      it('removes both with null for each, and emits nothing for what is already gone', () => {
        space
          .given([spaceCreated(), updated({ icon, emoji: '' })])
          .when({ type: 'UpdateSpace', changes: { emoji: '', icon: null }, at })
          .thenEmits([updated({ icon: null })]);
        space
          .given(active)
          .when({ type: 'UpdateSpace', changes: { icon: null }, at })
          .thenNothing();
      });

      it('emits nothing when the icon is already the one given', () => {
        space
          .given([spaceCreated(), updated({ icon, emoji: '' })])
          .when({ type: 'UpdateSpace', changes: { icon }, at })
          .thenNothing();
      });

      it('refuses an emoji and an icon together, naming both', () => {
        space
          .given(active)
          .when({ type: 'UpdateSpace', changes: { emoji: '🚀', icon }, at })
          .thenThrows('invalid', /^emoji and icon/);
      });

      it('refuses an icon that is not an http(s) URL of at most 2048 characters', () => {
        for (const bad of [
          'icon.png',
          'ftp://example.com/i.png',
          `https://example.com/${'x'.repeat(2048)}`,
        ]) {
          space
            .given(active)
            .when({ type: 'UpdateSpace', changes: { icon: bad }, at })
            .thenThrows('invalid', /^icon must be an http\(s\) URL/);
        }
      });

      it('reads a space created before icons existed as having none', () => {
        expect(fold(spaceDecider, active)).not.toHaveProperty('icon');
      });
    });

    it('rejects updating a deleted space', () => {
      space
        .given(deleted)
        .when({ type: 'UpdateSpace', changes: { title: 'Guide' }, at })
        .thenThrows('conflict', /deleted/);
    });

    it('rejects updating a space that does not exist', () => {
      space.when({ type: 'UpdateSpace', changes: { title: 'Guide' }, at }).thenThrows('not_found');
    });

    it('rejects updating a purged space', () => {
      space
        .given(purged)
        .when({ type: 'UpdateSpace', changes: { title: 'Guide' }, at })
        .thenThrows('not_found');
    });
  });

  describe('DeleteSpace', () => {
    it('deletes a space and schedules its purge 7 days later', () => {
      const state = space
        .given(active)
        .when({ type: 'DeleteSpace', at: deletedAt })
        .thenEmits([
          {
            type: 'SpaceDeleted',
            data: {
              spaceId: 'space1',
              deletedAt: '2026-01-02T00:00:00.000Z',
              purgeAfter: '2026-01-09T00:00:00.000Z',
            },
          },
        ]);
      expect(state).toMatchObject({
        status: 'deleted',
        id: 'space1',
        title: 'Handbook',
        deletedAt: iso(deletedAt),
        purgeAfter: iso(deletedAt + 7 * DAY_MS),
      });
    });

    it('emits nothing when the space is already deleted', () => {
      space
        .given(deleted)
        .when({ type: 'DeleteSpace', at: deletedAt + DAY_MS })
        .thenNothing();
    });

    it('keeps the first deletion when deleted twice', () => {
      expect(fold(spaceDecider, [...deleted, spaceDeleted(deletedAt + DAY_MS)])).toMatchObject({
        deletedAt: iso(deletedAt),
        purgeAfter: iso(purgeAfter),
      });
    });

    it('rejects deleting a purged space', () => {
      space
        .given(purged)
        .when({ type: 'DeleteSpace', at: purgeAfter + DAY_MS })
        .thenThrows('not_found');
    });

    it('rejects deleting a space that does not exist', () => {
      space.when({ type: 'DeleteSpace', at: t0 }).thenThrows('not_found');
    });
  });

  describe('RestoreSpace', () => {
    it('restores a space deleted a day ago', () => {
      const at = deletedAt + DAY_MS;
      const state = space
        .given(deleted)
        .when({ type: 'RestoreSpace', at })
        .thenEmits([spaceRestored(at)]);
      expect(state).toStrictEqual(fold(spaceDecider, active));
    });

    it('restores a space until the last moment of its retention', () => {
      space
        .given(deleted)
        .when({ type: 'RestoreSpace', at: purgeAfter - 1 })
        .thenEmits([spaceRestored(purgeAfter - 1)]);
    });

    it('rejects restoring a space deleted more than 7 days ago', () => {
      space
        .given(deleted)
        .when({ type: 'RestoreSpace', at: purgeAfter + 1 })
        .thenThrows('conflict', /7 days/);
    });

    it('rejects restoring a space that is not deleted', () => {
      space
        .given(active)
        .when({ type: 'RestoreSpace', at: deletedAt })
        .thenThrows('conflict', /not deleted/);
    });

    it('rejects restoring a space that does not exist', () => {
      space.when({ type: 'RestoreSpace', at: t0 }).thenThrows('not_found');
    });

    it('rejects restoring a purged space', () => {
      space
        .given(purged)
        .when({ type: 'RestoreSpace', at: purgeAfter + 1 })
        .thenThrows('not_found');
    });
  });

  describe('PurgeSpace', () => {
    it('purges a deleted space once its retention ends', () => {
      const state = space
        .given(deleted)
        .when({ type: 'PurgeSpace', deletedAt: iso(deletedAt), at: purgeAfter })
        .thenEmits([spacePurged(purgeAfter)]);
      expect(state).toStrictEqual({ status: 'purged', id: 'space1' });
    });

    it('purges a deleted space long after its retention ended', () => {
      space
        .given(deleted)
        .when({ type: 'PurgeSpace', deletedAt: iso(deletedAt), at: purgeAfter + 30 * DAY_MS })
        .thenEmits([spacePurged(purgeAfter + 30 * DAY_MS)]);
    });

    it('rejects purging before the retention ends', () => {
      space
        .given(deleted)
        .when({ type: 'PurgeSpace', deletedAt: iso(deletedAt), at: purgeAfter - 1 })
        .thenThrows('invalid', /retention/);
    });

    it('ignores a purge scheduled for an earlier deletion of a space deleted again', () => {
      const deletedAgain = deletedAt + 2 * DAY_MS;
      space
        .given([...deleted, spaceRestored(deletedAt + DAY_MS), spaceDeleted(deletedAgain)])
        .when({ type: 'PurgeSpace', deletedAt: iso(deletedAt), at: purgeAfter })
        .thenNothing();
    });

    it('purges a space deleted again once the latest deletion retention ends', () => {
      const deletedAgain = deletedAt + 2 * DAY_MS;
      space
        .given([...deleted, spaceRestored(deletedAt + DAY_MS), spaceDeleted(deletedAgain)])
        .when({ type: 'PurgeSpace', deletedAt: iso(deletedAgain), at: deletedAgain + SPACE_RETENTION_MS })
        .thenEmits([spacePurged(deletedAgain + SPACE_RETENTION_MS)]);
    });

    it('ignores a purge of a space that was restored', () => {
      space
        .given([...deleted, spaceRestored(deletedAt + DAY_MS)])
        .when({ type: 'PurgeSpace', deletedAt: iso(deletedAt), at: purgeAfter })
        .thenNothing();
    });

    it('ignores a purge of an active space', () => {
      space
        .given(active)
        .when({ type: 'PurgeSpace', deletedAt: iso(deletedAt), at: purgeAfter })
        .thenNothing();
    });

    it('ignores a purge of a space that was already purged', () => {
      space
        .given(purged)
        .when({ type: 'PurgeSpace', deletedAt: iso(deletedAt), at: purgeAfter + DAY_MS })
        .thenNothing();
    });

    it('ignores a purge of a space that does not exist', () => {
      space.when({ type: 'PurgeSpace', deletedAt: iso(deletedAt), at: purgeAfter }).thenNothing();
    });
  });

  describe('MoveSpace', () => {
    const at = t0 + 1000;

    it('moves a space into another collection', () => {
      const state = space
        .given(active)
        .when({ type: 'MoveSpace', parent: 'coll2', position: 4, at })
        .thenEmits([
          { type: 'SpaceMoved', data: { spaceId: 'space1', parent: 'coll2', position: 4, movedAt: iso(at) } },
        ]);
      expect(state).toMatchObject({ status: 'active', parent: 'coll2', visibility: 'in-collection' });
    });

    it('makes an in-collection space private when it moves to the top level', () => {
      const state = space
        .given(active)
        .when({ type: 'MoveSpace', parent: null, position: 0, at })
        .thenEmits([
          { type: 'SpaceMoved', data: { spaceId: 'space1', parent: null, position: 0, movedAt: iso(at) } },
        ]);
      expect(state).toMatchObject({ parent: null, visibility: 'private' });
    });

    it('keeps a private top-level space private when it moves into a collection', () => {
      const state = space
        .given([topLevelCreated])
        .when({ type: 'MoveSpace', parent: 'coll1', position: 0, at })
        .thenEmits([
          { type: 'SpaceMoved', data: { spaceId: 'space1', parent: 'coll1', position: 0, movedAt: iso(at) } },
        ]);
      expect(state).toMatchObject({ parent: 'coll1', visibility: 'private' });
    });

    it('rejects moving a deleted space', () => {
      space
        .given(deleted)
        .when({ type: 'MoveSpace', parent: 'coll2', position: 0, at })
        .thenThrows('conflict', /deleted/);
    });

    it('rejects moving a space that does not exist', () => {
      space.when({ type: 'MoveSpace', parent: 'coll2', position: 0, at }).thenThrows('not_found');
    });

    it('rejects moving a purged space', () => {
      space
        .given(purged)
        .when({ type: 'MoveSpace', parent: 'coll2', position: 0, at })
        .thenThrows('not_found');
    });
  });

  describe('TransferSpace', () => {
    const at = t0 + 1000;

    it('transfers a space into a collection of another organization', () => {
      const state = space
        .given(active)
        .when({ type: 'TransferSpace', organization: 'org2', parent: 'coll9', position: 2, at })
        .thenEmits([
          {
            type: 'SpaceTransferred',
            data: {
              spaceId: 'space1',
              fromOrganization: 'org1',
              organization: 'org2',
              parent: 'coll9',
              position: 2,
              transferredAt: iso(at),
            },
          },
        ]);
      expect(state).toMatchObject({
        status: 'active',
        organization: 'org2',
        parent: 'coll9',
        visibility: 'in-collection',
      });
    });

    it('makes an in-collection space private when it lands at the top level', () => {
      const state = space
        .given(active)
        .when({ type: 'TransferSpace', organization: 'org2', parent: null, position: 0, at })
        .thenEmits([
          {
            type: 'SpaceTransferred',
            data: {
              spaceId: 'space1',
              fromOrganization: 'org1',
              organization: 'org2',
              parent: null,
              position: 0,
              transferredAt: iso(at),
            },
          },
        ]);
      expect(state).toMatchObject({ organization: 'org2', parent: null, visibility: 'private' });
    });

    it('names the current organization as the origin of a second transfer', () => {
      const transferred: SpaceEvent = {
        type: 'SpaceTransferred',
        data: {
          spaceId: 'space1',
          fromOrganization: 'org1',
          organization: 'org2',
          parent: null,
          position: 0,
          transferredAt: iso(at),
        },
      };
      const state = space
        .given([...active, transferred])
        .when({ type: 'TransferSpace', organization: 'org3', parent: null, position: 1, at: at + 1000 })
        .thenEmits([
          {
            type: 'SpaceTransferred',
            data: {
              spaceId: 'space1',
              fromOrganization: 'org2',
              organization: 'org3',
              parent: null,
              position: 1,
              transferredAt: iso(at + 1000),
            },
          },
        ]);
      expect(state).toMatchObject({ organization: 'org3' });
    });

    it('rejects transferring a deleted space', () => {
      space
        .given(deleted)
        .when({ type: 'TransferSpace', organization: 'org2', parent: null, position: 0, at })
        .thenThrows('conflict', /deleted/);
    });

    it('rejects transferring a space that does not exist', () => {
      space
        .when({ type: 'TransferSpace', organization: 'org2', parent: null, position: 0, at })
        .thenThrows('not_found');
    });

    it('rejects transferring a purged space', () => {
      space
        .given(purged)
        .when({ type: 'TransferSpace', organization: 'org2', parent: null, position: 0, at })
        .thenThrows('not_found');
    });
  });

  describe('evolve', () => {
    it('ignores updates, moves and transfers of a deleted space', () => {
      const before = fold(spaceDecider, deleted);
      const after = fold(spaceDecider, [
        ...deleted,
        {
          type: 'SpaceUpdated',
          data: { spaceId: 'space1', changes: { title: 'Guide' }, updatedAt: iso(t0) },
        },
        { type: 'SpaceMoved', data: { spaceId: 'space1', parent: null, position: 0, movedAt: iso(t0) } },
        {
          type: 'SpaceTransferred',
          data: {
            spaceId: 'space1',
            fromOrganization: 'org1',
            organization: 'org2',
            parent: null,
            position: 0,
            transferredAt: iso(t0),
          },
        },
      ]);
      expect(after).toStrictEqual(before);
    });
  });
});
