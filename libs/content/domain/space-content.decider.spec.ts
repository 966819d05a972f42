import { fold } from '@app/platform/domain/decider';
import { spec } from '@app/platform/domain/decider.testing';
import type { MergeRulesConfiguration } from '@app/spaces/domain/merge-rules';
import {
  editableChangeRequest,
  type SpaceContentCommand,
  type SpaceContentEvent,
  spaceContentDecider,
  spaceContentStream,
} from './space-content.decider';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const head0 = { id: 'rev0', root: 'root0' };
const given = spec(spaceContentDecider).given;

const create = (id = 'cr1', head = head0): SpaceContentCommand => ({
  type: 'CreateChangeRequest',
  spaceId: 's1',
  organization: 'o1',
  changeRequestId: id,
  subject: `Subject ${id}`,
  head,
  createdBy: 'u1',
  at: t0,
});

const created = (id = 'cr1', number = 1, revisionInitial = head0): SpaceContentEvent => ({
  type: 'ChangeRequestCreated',
  data: {
    spaceId: 's1',
    changeRequestId: id,
    organization: 'o1',
    number,
    subject: `Subject ${id}`,
    status: 'open',
    revisionInitial,
    createdBy: 'u1',
    createdAt: iso(t0),
  },
});

const edited = (id: string, parent: string, revision: { id: string; root: string }): SpaceContentEvent => ({
  type: 'ChangeRequestContentUpdated',
  data: {
    spaceId: 's1',
    changeRequestId: id,
    revision,
    parent,
    changes: [{ object: 'created_page', page: 'p1' }],
    updatedAt: iso(t0),
  },
});

const merged = (
  id: string,
  onto: string,
  from: string,
  revision: { id: string; root: string },
): SpaceContentEvent => ({
  type: 'ChangeRequestMerged',
  data: {
    spaceId: 's1',
    changeRequestId: id,
    revision,
    parents: [onto, from],
    previousStatus: 'open',
    mergedBy: 'u1',
    mergedAt: iso(t0),
  },
});

const edit = (
  overrides: Partial<Extract<SpaceContentCommand, { type: 'UpdateChangeRequestContent' }>> = {},
) =>
  ({
    type: 'UpdateChangeRequestContent',
    changeRequestId: 'cr1',
    from: 'rev0',
    revision: { id: 'rev1', root: 'root1' },
    changes: [{ object: 'created_page', page: 'p1' }],
    at: t0,
    ...overrides,
  }) as SpaceContentCommand;

const merge = (overrides: Partial<Extract<SpaceContentCommand, { type: 'MergeChangeRequest' }>> = {}) =>
  ({
    type: 'MergeChangeRequest',
    changeRequestId: 'cr1',
    from: 'rev1',
    onto: head0,
    revision: { id: 'rev2', root: 'root1' },
    mergedBy: 'u1',
    mergeRules: { type: 'inherit' },
    at: t0,
    ...overrides,
  }) as SpaceContentCommand;

describe('space content decider', () => {
  it('numbers change requests in order, from the space revision the caller read', () => {
    given([])
      .when(create('cr1'))
      .thenEmits([created('cr1', 1)]);
    given([created('cr1', 1)])
      .when(create('cr2'))
      .thenEmits([created('cr2', 2)]);
    expect(spaceContentStream('s1')).toBe('space-content-s1');
  });

  it('refuses a change request created twice, or from a revision that is no longer current', () => {
    given([created('cr1')])
      .when(create('cr1'))
      .thenThrows('conflict', /already exists/);
    given([created('cr1')])
      .when(create('cr2', { id: 'old', root: 'r' }))
      .thenThrows('conflict', /changed meanwhile/);
  });

  it('updates subject and status along the allowed moves only', () => {
    const update = (changes: object) =>
      ({ type: 'UpdateChangeRequest', changeRequestId: 'cr1', at: t0, ...changes }) as SpaceContentCommand;
    given([created()])
      .when(update({ subject: 'New', status: 'draft' }))
      .thenEmits([
        {
          type: 'ChangeRequestUpdated',
          data: {
            spaceId: 's1',
            changeRequestId: 'cr1',
            changes: { subject: 'New', status: 'draft' },
            previousStatus: 'open',
            updatedAt: iso(t0),
          },
        },
      ]);
    given([created()])
      .when(update({ subject: 'Subject cr1', status: 'open' }))
      .thenNothing();
    const archived: SpaceContentEvent = {
      type: 'ChangeRequestUpdated',
      data: {
        spaceId: 's1',
        changeRequestId: 'cr1',
        changes: { status: 'archived' },
        previousStatus: 'open',
        updatedAt: iso(t0),
      },
    };
    given([created(), archived])
      .when(update({ status: 'open' }))
      .thenEmits([
        {
          type: 'ChangeRequestUpdated',
          data: {
            spaceId: 's1',
            changeRequestId: 'cr1',
            changes: { status: 'open' },
            previousStatus: 'archived',
            updatedAt: iso(t0),
          },
        },
      ]);
    given([created()])
      .when(update({ status: 'merged' }))
      .thenThrows('invalid', /from open to merged/);
  });

  it('records a description as given, and links with the ids of those kept and new ones for those added', () => {
    const update = (changes: object) =>
      ({ type: 'UpdateChangeRequest', changeRequestId: 'cr1', at: t0, ...changes }) as SpaceContentCommand;
    const description = { object: 'document' as const, data: {}, nodes: [] };
    const url = (n: number) => ({ kind: 'url' as const, url: `https://example.com/${n}` });
    const linked = (changes: object): SpaceContentEvent => ({
      type: 'ChangeRequestUpdated',
      data: { spaceId: 's1', changeRequestId: 'cr1', changes, previousStatus: 'open', updatedAt: iso(t0) },
    });
    const first = linked({ description, links: [{ id: 'l1', ref: url(1), title: 'One' }] });
    given([created()])
      .when(update({ description, links: [{ ref: url(1), title: 'One' }], newLinkIds: ['l1'] }))
      .thenEmits([first]);
    // Kept by id (retitled), one added, the rest dropped: the list given replaces the list.
    given([created(), first])
      .when(
        update({
          links: [{ ref: url(2) }, { id: 'l1', ref: url(1), title: 'Renamed' }],
          newLinkIds: ['l2'],
        }),
      )
      .thenEmits([
        linked({
          links: [
            { id: 'l2', ref: url(2) },
            { id: 'l1', ref: url(1), title: 'Renamed' },
          ],
        }),
      ]);
    given([created(), first])
      .when(update({ links: [{ id: 'l1', ref: url(1), title: 'One' }] }))
      .thenNothing();
    given([created(), first])
      .when(update({ links: [] }))
      .thenEmits([linked({ links: [] })]);
    given([created()])
      .when(update({ links: [{ id: 'l9', ref: url(1) }] }))
      .thenThrows('invalid', /links\[0\]\.id: l9 is not a link/);
    given([created(), first])
      .when(
        update({
          links: [
            { id: 'l1', ref: url(1) },
            { id: 'l1', ref: url(2) },
          ],
        }),
      )
      .thenThrows('invalid', /links\[1\]\.id: l1 is given twice/);
    given([created()])
      .when(update({ links: Array.from({ length: 11 }, (_, i) => ({ ref: url(i) })), newLinkIds: [] }))
      .thenThrows('invalid', /at most 10 links/);
  });

  it('refuses any change of a merged change request', () => {
    const history = [
      created(),
      edited('cr1', 'rev0', { id: 'rev1', root: 'root1' }),
      merged('cr1', 'rev0', 'rev1', { id: 'rev2', root: 'root1' }),
    ];
    given(history)
      .when({ type: 'UpdateChangeRequest', changeRequestId: 'cr1', subject: 'x', at: t0 })
      .thenThrows('conflict', /merged/);
    given(history)
      .when(edit({ from: 'rev1' }))
      .thenThrows('conflict', /merged/);
    given(history)
      .when(merge())
      .thenThrows('conflict', /merged/);
  });

  it('records an edit computed on the current revision; an edit that changes nothing records nothing', () => {
    given([created()])
      .when(edit())
      .thenEmits([edited('cr1', 'rev0', { id: 'rev1', root: 'root1' })]);
    given([created()])
      .when(edit({ revision: { id: 'rev1', root: 'root0' } }))
      .thenNothing();
    given([created()])
      .when(edit({ from: 'other' }))
      .thenThrows('conflict', /changed meanwhile/);
  });

  it('answers a stale If-Match with precondition_failed, and a current one goes through', () => {
    given([created()])
      .when(edit({ ifVersion: 3 }))
      .thenThrows('precondition_failed', /version is 0/);
    given([created()])
      .when(edit({ ifVersion: 0 }))
      .thenEmits([edited('cr1', 'rev0', { id: 'rev1', root: 'root1' })]);
    const state = fold(spaceContentDecider, [
      created(),
      edited('cr1', 'rev0', { id: 'rev1', root: 'root1' }),
    ]);
    expect(() => editableChangeRequest(state, 'cr1', 0)).toThrow(/version is 1/);
  });

  it('refuses edits, updates and merges of an archived change request', () => {
    const archived: SpaceContentEvent = {
      type: 'ChangeRequestUpdated',
      data: {
        spaceId: 's1',
        changeRequestId: 'cr1',
        changes: { status: 'archived' },
        previousStatus: 'open',
        updatedAt: iso(t0),
      },
    };
    given([created(), archived])
      .when(edit())
      .thenThrows('conflict', /archived/);
    given([created(), archived])
      .when(merge({ from: 'rev0' }))
      .thenThrows('conflict', /archived/);
  });

  it('merges from the current space revision only, and moves it', () => {
    const history = [created(), edited('cr1', 'rev0', { id: 'rev1', root: 'root1' })];
    const state = given(history)
      .when(merge())
      .thenEmits([merged('cr1', 'rev0', 'rev1', { id: 'rev2', root: 'root1' })]);
    expect(state.head).toEqual({ id: 'rev2', root: 'root1' });
    expect(state.changeRequests.cr1).toBeUndefined();
    given(history)
      .when(merge({ onto: { id: 'stale', root: 'x' } }))
      .thenThrows('conflict', /changed meanwhile/);
    given(history)
      .when(merge({ from: 'rev0' }))
      .thenThrows('conflict', /changed meanwhile/);
  });

  it('rebases onto the space revision: a new revision, or only a new base when nothing comes in', () => {
    const other = [
      created('cr2', 2),
      edited('cr2', 'rev0', { id: 'r2', root: 'root2' }),
      merged('cr2', 'rev0', 'r2', { id: 'rev3', root: 'root2' }),
    ];
    const history = [created(), edited('cr1', 'rev0', { id: 'rev1', root: 'root1' }), ...other];
    const onto = { id: 'rev3', root: 'root2' };
    const rebase = (revision: { id: string; root: string } | null) =>
      ({
        type: 'RebaseChangeRequest',
        changeRequestId: 'cr1',
        from: 'rev1',
        onto,
        revision,
        at: t0,
      }) as SpaceContentCommand;
    const state = given(history)
      .when(rebase({ id: 'rev4', root: 'root12' }))
      .thenEmits([
        {
          type: 'ChangeRequestRebased',
          data: {
            spaceId: 's1',
            changeRequestId: 'cr1',
            revision: { id: 'rev4', root: 'root12' },
            parents: ['rev1', 'rev3'],
            mergedAncestor: onto,
            updatedAt: iso(t0),
          },
        },
      ]);
    expect(state.changeRequests.cr1.base).toEqual(onto);
    given(history)
      .when(rebase(null))
      .thenEmits([
        {
          type: 'ChangeRequestRebased',
          data: {
            spaceId: 's1',
            changeRequestId: 'cr1',
            revision: { id: 'rev1', root: 'root1' },
            parents: ['rev1'],
            mergedAncestor: onto,
            updatedAt: iso(t0),
          },
        },
      ]);
    // Already based on the space's revision: nothing to do.
    given([created(), edited('cr1', 'rev0', { id: 'rev1', root: 'root1' })])
      .when({
        type: 'RebaseChangeRequest',
        changeRequestId: 'cr1',
        from: 'rev1',
        onto: head0,
        revision: null,
        at: t0,
      })
      .thenNothing();
  });
});

describe('space content decider: reviews', () => {
  const review = (
    reviewer: string,
    status: 'approved' | 'changes-requested' = 'approved',
  ): SpaceContentCommand => ({
    type: 'SubmitChangeRequestReview',
    changeRequestId: 'cr1',
    reviewId: `review-${reviewer}`,
    reviewer,
    status,
    at: t0,
  });
  const reviewed = (reviewer: string, revision = 'rev1'): SpaceContentEvent => ({
    type: 'ChangeRequestReviewSubmitted',
    data: {
      spaceId: 's1',
      changeRequestId: 'cr1',
      reviewId: `review-${reviewer}`,
      reviewer,
      status: 'approved',
      revision,
      submittedAt: iso(t0),
    },
  });
  const history = [created(), edited('cr1', 'rev0', { id: 'rev1', root: 'root1' })];
  const strict: MergeRulesConfiguration = {
    type: 'rules',
    rules: [{ rule: 'require_specific_reviewers', users: ['u2'] }],
  };

  it('records a review of the current revision', () => {
    given(history)
      .when(review('u2'))
      .thenEmits([reviewed('u2')]);
  });

  it('records the comment given with a review', () => {
    const comment = { id: 'c1', body: { object: 'document' as const, data: {}, nodes: [] } };
    const withComment = { ...review('u2'), comment } as SpaceContentCommand;
    const event = reviewed('u2');
    given(history)
      .when(withComment)
      .thenEmits([{ ...event, data: { ...event.data, comment } } as SpaceContentEvent]);
  });

  it('updates the subject and description given with a request for reviewers, before it', () => {
    const description = { object: 'document' as const, data: {}, nodes: [] };
    const ask: SpaceContentCommand = {
      type: 'RequestChangeRequestReviewers',
      changeRequestId: 'cr1',
      users: ['u2'],
      requestedBy: 'u1',
      subject: 'Ready',
      description,
      at: t0,
    };
    given(history)
      .when(ask)
      .thenEmits([
        {
          type: 'ChangeRequestUpdated',
          data: {
            spaceId: 's1',
            changeRequestId: 'cr1',
            changes: { subject: 'Ready', description },
            previousStatus: 'open',
            updatedAt: iso(t0),
          },
        },
        {
          type: 'ChangeRequestReviewersRequested',
          data: {
            spaceId: 's1',
            changeRequestId: 'cr1',
            users: ['u2'],
            revision: 'rev1',
            requestedBy: 'u1',
            requestedAt: iso(t0),
          },
        },
      ]);
    // The subject it already has changes nothing; the request is still recorded.
    given(history)
      .when({ ...ask, subject: 'Subject cr1', description: undefined })
      .thenEmits([
        {
          type: 'ChangeRequestReviewersRequested',
          data: {
            spaceId: 's1',
            changeRequestId: 'cr1',
            users: ['u2'],
            revision: 'rev1',
            requestedBy: 'u1',
            requestedAt: iso(t0),
          },
        },
      ]);
  });

  it('asks reviewers once each, never the author, and removes only those asked', () => {
    const ask = (users: string[]): SpaceContentCommand => ({
      type: 'RequestChangeRequestReviewers',
      changeRequestId: 'cr1',
      users,
      requestedBy: 'u1',
      at: t0,
    });
    const asked: SpaceContentEvent = {
      type: 'ChangeRequestReviewersRequested',
      data: {
        spaceId: 's1',
        changeRequestId: 'cr1',
        users: ['u2'],
        revision: 'rev1',
        requestedBy: 'u1',
        requestedAt: iso(t0),
      },
    };
    given(history)
      .when(ask(['u2', 'u2']))
      .thenEmits([asked]);
    given(history)
      .when(ask(['u1']))
      .thenThrows('invalid', /author/);
    const remove = (user: string): SpaceContentCommand => ({
      type: 'RemoveChangeRequestReviewer',
      changeRequestId: 'cr1',
      user,
      at: t0,
    });
    given([...history, asked])
      .when(remove('u2'))
      .thenEmits([
        {
          type: 'ChangeRequestReviewerRemoved',
          data: { spaceId: 's1', changeRequestId: 'cr1', user: 'u2', removedAt: iso(t0) },
        },
      ]);
    given(history).when(remove('u2')).thenNothing();
  });

  it('merges under merge rules only with the approvals they require, of the current revision', () => {
    given(history)
      .when(merge({ mergeRules: strict }))
      .thenThrows('conflict', /u2/);
    given([...history, reviewed('u2', 'rev0')])
      .when(merge({ mergeRules: strict }))
      .thenThrows('conflict', /u2/);
    given([...history, reviewed('u2')])
      .when(merge({ mergeRules: strict }))
      .thenEmits([merged('cr1', 'rev0', 'rev1', { id: 'rev2', root: 'root1' })]);
  });
});
