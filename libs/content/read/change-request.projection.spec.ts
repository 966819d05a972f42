import { deflateRawSync } from 'node:zlib';
import { EMPTY_ROOT } from '@app/documents/tree/content';
import { encodeObject, storedEntries } from '@app/documents/tree/stored-objects';
import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import type { SpaceEvent } from '@app/spaces/domain/space.decider';
import { type ContentObjectsEvent, contentObjectsStream } from '../domain/content-objects.decider';
import { type SpaceContentEvent, spaceContentStream } from '../domain/space-content.decider';
import {
  CHANGE_REQUESTS,
  type ChangeRequestDoc,
  changeRequestProjection,
  PARTICIPANTS,
  type ParticipantDoc,
} from './change-request.projection';
import {
  CONTENT_OBJECTS,
  type ContentObjectDoc,
  contentObjectDoc,
  contentObjectProjection,
  readContentObject,
} from './content-object.projection';
import { REVISIONS, revisionProjection } from './revision.projection';

const event = recorderOf<SpaceContentEvent>();
const spaceEvent = recorderOf<SpaceEvent>();
const objectsEvent = recorderOf<ContentObjectsEvent>();
const t = (day: number) => `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;
const inContent = { stream: spaceContentStream('s1') };
const by = (userId: string) => ({ ...inContent, metadata: { actor: { userId, source: 'api' as const } } });

const created = event(
  'ChangeRequestCreated',
  {
    spaceId: 's1',
    changeRequestId: 'cr1',
    organization: 'o1',
    number: 1,
    subject: 'Fix typos',
    status: 'open',
    revisionInitial: { id: 'rev0', root: EMPTY_ROOT },
    createdBy: 'u1',
    createdAt: t(1),
  },
  inContent,
);
const edited = (user: string, id: string, parent: string, day: number) =>
  event(
    'ChangeRequestContentUpdated',
    {
      spaceId: 's1',
      changeRequestId: 'cr1',
      revision: { id, root: `root-${id}` },
      parent,
      changes: [{ object: 'created_page', page: 'p1' }],
      updatedAt: t(day),
    },
    by(user),
  );
const drafted = event(
  'ChangeRequestUpdated',
  {
    spaceId: 's1',
    changeRequestId: 'cr1',
    changes: { status: 'draft' },
    previousStatus: 'open',
    updatedAt: t(4),
  },
  inContent,
);
const merged = event(
  'ChangeRequestMerged',
  {
    spaceId: 's1',
    changeRequestId: 'cr1',
    revision: { id: 'rev3', root: 'root-rev2' },
    parents: ['rev0', 'rev2'],
    previousStatus: 'draft',
    mergedBy: 'u3',
    mergedAt: t(5),
  },
  inContent,
);

const doc = (changes: Partial<ChangeRequestDoc>): ChangeRequestDoc => ({
  id: 'cr1',
  space: 's1',
  organization: 'o1',
  number: 1,
  status: 'open',
  subject: 'Fix typos',
  createdBy: 'u1',
  createdAt: t(1),
  updatedAt: t(1),
  revision: 'rev0',
  root: EMPTY_ROOT,
  revisionInitial: 'rev0',
  base: 'rev0',
  revisionMergedAncestor: null,
  revisionMerged: null,
  mergedBy: null,
  mergedAt: null,
  version: 0,
  comments: 0,
  contributors: [],
  requestedReviewers: [],
  ...changes,
});

const participant = (
  role: ParticipantDoc['role'],
  user: string,
  changes: Partial<ParticipantDoc> = {},
): ParticipantDoc => ({
  id: `cr1:${role}:${user}`,
  role,
  user,
  changeRequest: 'cr1',
  space: 's1',
  organization: 'o1',
  status: 'open',
  createdBy: 'u1',
  createdAt: t(1),
  updatedAt: t(1),
  ...changes,
});

const history = [created, edited('u1', 'rev1', 'rev0', 2), edited('u2', 'rev2', 'rev1', 3), drafted, merged];

describe('change requests projection', () => {
  const projection = givenProjection(changeRequestProjection);

  it('follows a change request from creation to merge, with its contributors and version', async () => {
    const scenario = projection.given(...history);
    await scenario.thenDocuments(CHANGE_REQUESTS, [
      doc({
        status: 'merged',
        revision: 'rev2',
        root: 'root-rev2',
        revisionMerged: 'rev3',
        mergedBy: 'u3',
        mergedAt: t(5),
        updatedAt: t(5),
        version: 4,
        contributors: ['u1', 'u2'],
      }),
    ]);
    await scenario.thenDocuments(PARTICIPANTS, [
      participant('contributor', 'u1', { status: 'merged', updatedAt: t(5) }),
      participant('contributor', 'u2', { status: 'merged', updatedAt: t(5) }),
      participant('creator', 'u1', { status: 'merged', updatedAt: t(5) }),
    ]);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });

  it('moves change requests with their space to another organization', async () => {
    const transferred = spaceEvent(
      'SpaceTransferred',
      {
        spaceId: 's1',
        fromOrganization: 'o1',
        organization: 'o2',
        parent: null,
        position: 1,
        transferredAt: t(6),
      },
      { stream: 'space-s1' },
    );
    const scenario = projection.given(created, transferred);
    await scenario.thenDocuments(CHANGE_REQUESTS, [doc({ organization: 'o2' })]);
    await scenario.thenDocuments(PARTICIPANTS, [participant('creator', 'u1', { organization: 'o2' })]);
  });

  it('keeps who is asked to review until they review or are removed, counting each in the version', async () => {
    const of = { spaceId: 's1', changeRequestId: 'cr1' };
    const asked = event(
      'ChangeRequestReviewersRequested',
      { ...of, users: ['u2', 'u3'], revision: 'rev0', requestedBy: 'u1', requestedAt: t(2) },
      inContent,
    );
    const reviewed = event(
      'ChangeRequestReviewSubmitted',
      { ...of, reviewId: 'r1', reviewer: 'u2', status: 'approved', revision: 'rev0', submittedAt: t(3) },
      inContent,
    );
    const removed = event('ChangeRequestReviewerRemoved', { ...of, user: 'u3', removedAt: t(4) }, inContent);
    const scenario = projection.given(created, asked);
    await scenario.thenDocuments(PARTICIPANTS, [
      participant('creator', 'u1'),
      participant('reviewer', 'u2'),
      participant('reviewer', 'u3'),
    ]);
    const after = projection.given(created, asked, reviewed, removed);
    await after.thenDocuments(CHANGE_REQUESTS, [doc({ requestedReviewers: [], version: 3 })]);
    await after.thenDocuments(PARTICIPANTS, [participant('creator', 'u1')]);
    await after.thenReplayChangesNothing();
    await after.thenRebuildMatches();
  });

  it('keeps the description and links an update gives', async () => {
    const description = { object: 'document' as const, data: {}, nodes: [] };
    const links = [
      { id: 'l1', ref: { kind: 'url' as const, url: 'https://example.com/1' }, title: 'Ticket' },
    ];
    const described = event(
      'ChangeRequestUpdated',
      {
        spaceId: 's1',
        changeRequestId: 'cr1',
        changes: { description, links },
        previousStatus: 'open',
        updatedAt: t(2),
      },
      inContent,
    );
    await projection
      .given(created, described)
      .thenDocuments(CHANGE_REQUESTS, [doc({ description, links, updatedAt: t(2), version: 1 })]);
  });
});

describe('revisions projection', () => {
  it('keeps the first revision of a space, each edit and each merge, with their parents', async () => {
    const space = spaceEvent(
      'SpaceCreated',
      {
        id: 's1',
        organization: 'o1',
        parent: null,
        title: 'Docs',
        emoji: '',
        editMode: 'live',
        defaultLevel: 'inherit',
        visibility: 'private',
        revision: 'rev0',
        position: 0,
        createdAt: t(1),
      },
      { stream: 'space-s1' },
    );
    const scenario = givenProjection(revisionProjection).given(space, ...history);
    const revision = (id: string, root: string, parents: string[], type: 'edits' | 'merge', day: number) => ({
      id,
      space: 's1',
      root,
      parents,
      type,
      createdAt: t(day),
      changeRequest: id === 'rev0' ? null : 'cr1',
    });
    await scenario.thenDocuments(REVISIONS, [
      revision('rev0', EMPTY_ROOT, [], 'edits', 1),
      revision('rev1', 'root-rev1', ['rev0'], 'edits', 2),
      revision('rev2', 'root-rev2', ['rev1'], 'edits', 3),
      revision('rev3', 'root-rev2', ['rev0', 'rev2'], 'merge', 5),
    ]);
    await scenario.thenRebuildMatches();
  });

  it("starts a duplicate at a revision of its own holding its source's content", async () => {
    const duplicate = spaceEvent(
      'SpaceCreated',
      {
        id: 's2',
        organization: 'o1',
        parent: null,
        title: 'Docs',
        emoji: '',
        editMode: 'live',
        defaultLevel: 'inherit',
        visibility: 'private',
        revision: 'rev9',
        position: 1,
        createdAt: t(6),
        duplicatedFrom: 's1',
        root: 'root-rev2',
      },
      { stream: 'space-s2' },
    );
    await givenProjection(revisionProjection)
      .given(duplicate)
      .thenDocuments(REVISIONS, [
        {
          id: 'rev9',
          space: 's2',
          root: 'root-rev2',
          parents: [],
          type: 'edits',
          createdAt: t(6),
          changeRequest: null,
        },
      ]);
  });
});

describe('content objects projection', () => {
  const noViews = { get: async () => null };
  const stored = (objects: Record<string, string>) =>
    objectsEvent('ContentObjectsStored', { spaceId: 's1', objects }, { stream: contentObjectsStream('s1') });

  it('finds each object by its hash in the latest event that stores it', async () => {
    const scenario = givenProjection(contentObjectProjection).given(
      stored({ h1: '{"a":1}', h2: '{"b":2}' }),
      stored({ h2: '{"b":2}' }),
    );
    await scenario.thenDocuments(CONTENT_OBJECTS, [
      { id: 'h1', space: 's1', revision: 0 },
      { id: 'h2', space: 's1', revision: 1 },
    ]);
    await scenario.thenReplayChangesNothing();
  });

  it('reads an object from the event the view points to, and one a view projected before holds', async () => {
    const json = JSON.stringify({
      nodes: Array.from({ length: 40 }, (_, i) => ({ object: 'block', text: `Line ${i}` })),
    });
    const event = { ...stored({ h3: json, h4: '{"a":1}' }), revision: 7 };
    let reads = 0;
    const log = {
      eventAt: async (stream: string, revision: number) => {
        reads++;
        return stream === event.stream && revision === 7 ? event : undefined;
      },
    };
    expect(await readContentObject(contentObjectDoc('h3', event), log, noViews)).toEqual(JSON.parse(json));
    expect(await readContentObject(contentObjectDoc('h4', event), log, noViews)).toEqual({ a: 1 });
    expect(reads).toBe(1);
    await expect(readContentObject(contentObjectDoc('h5', event), log, noViews)).rejects.toThrow(
      /h5 is not in space-objects-s1@7/,
    );
    const deflated = deflateRawSync(json).toString('base64');
    expect(await readContentObject({ id: 'h3', deflated }, log, noViews)).toEqual(JSON.parse(json));
    expect(await readContentObject({ id: 'h4', json: '{"a":1}' }, log, noViews)).toEqual({ a: 1 });
    expect(reads).toBe(1);
  });

  it('reads objects in the forms they are stored in, one in parts from the events its parts are in', async () => {
    const document = {
      object: 'document',
      data: {},
      nodes: Array.from({ length: 300 }, (_, i) => ({
        object: 'block',
        type: 'paragraph',
        key: `k${i}`,
        text: `Line ${i}`,
      })),
    };
    const entries = storedEntries('h6', encodeObject(document), 400);
    expect(entries.length).toBeGreaterThan(2);
    const events = entries.map(([id, text], i) => ({ ...stored({ [id]: text }), revision: 10 + i }));
    const log = { eventAt: async (_stream: string, revision: number) => events[revision - 10] };
    const docs = new Map(
      events.map((event) => {
        const id = Object.keys(event.data.objects)[0];
        return [id, contentObjectDoc(id, event)];
      }),
    );
    const views = { get: async (_collection: unknown, id: string) => docs.get(id) };
    const whole = docs.get('h6') as ContentObjectDoc;
    expect(await readContentObject(whole, log, views as never)).toEqual(document);
    await expect(readContentObject(whole, log, noViews)).rejects.toThrow(/part 1 of content object h6/);
  });
});
