import { fold } from '@app/platform/domain/decider';
import { spec } from '@app/platform/domain/decider.testing';
import { opens, type ShareLinkCommand, type ShareLinkEvent, shareLinkDecider } from './share-link.decider';

const AT = Date.parse('2026-01-01T00:00:00.000Z');
const ISO = '2026-01-01T00:00:00.000Z';
const ref = { shareLinkId: 'l1', siteId: 'w1', organization: 'o1' };
const place = { siteId: 'w1', organization: 'o1' };
const create = (name: string): ShareLinkCommand => ({
  type: 'CreateShareLink',
  ...ref,
  name,
  keyHash: 'h1',
  at: AT,
});
const update = (input: { name?: string; active?: boolean }, at = place): ShareLinkCommand => ({
  type: 'UpdateShareLink',
  ...at,
  input,
  at: AT,
});
const created: ShareLinkEvent = {
  type: 'ShareLinkCreated',
  data: { ...ref, name: 'Reviewers', keyHash: 'h1', createdAt: ISO },
};
const renamed: ShareLinkEvent = { type: 'ShareLinkRenamed', data: { ...ref, name: 'Beta', renamedAt: ISO } };
const deactivated: ShareLinkEvent = { type: 'ShareLinkDeactivated', data: { ...ref, deactivatedAt: ISO } };
const activated: ShareLinkEvent = { type: 'ShareLinkActivated', data: { ...ref, activatedAt: ISO } };
const deleted: ShareLinkEvent = { type: 'ShareLinkDeleted', data: { ...ref, deletedAt: ISO } };

describe('share link decider', () => {
  const link = spec(shareLinkDecider);

  it('creates an active link holding its key hash, once', () => {
    const state = link.when(create('Reviewers')).thenEmits([created]);
    expect(opens(state)).toBe(true);
    link.given([created]).when(create('Reviewers')).thenThrows('conflict');
  });

  it('takes an empty name and refuses one over 50 characters, naming it', () => {
    link
      .when(create(''))
      .thenEmits([{ type: 'ShareLinkCreated', data: { ...created.data, name: '' } } as ShareLinkEvent]);
    link.when(create('x'.repeat(51))).thenThrows('invalid', /name/);
    link
      .given([created])
      .when(update({ name: 'x'.repeat(51) }))
      .thenThrows('invalid', /name/);
  });

  it('renames, deactivates and reactivates, recording only what changes', () => {
    link
      .given([created])
      .when(update({ name: 'Beta' }))
      .thenEmits([renamed]);
    link
      .given([created])
      .when(update({ name: 'Reviewers', active: true }))
      .thenNothing();
    const off = link
      .given([created])
      .when(update({ active: false, name: 'Beta' }))
      .thenEmits([renamed, deactivated]);
    expect(opens(off)).toBe(false);
    link
      .given([created, deactivated])
      .when(update({ active: false }))
      .thenNothing();
    const on = link
      .given([created, deactivated])
      .when(update({ active: true }))
      .thenEmits([activated]);
    expect(opens(on)).toBe(true);
  });

  it('deletes a link, which then opens nothing and is not found', () => {
    const state = link
      .given([created])
      .when({ type: 'DeleteShareLink', ...place, at: AT })
      .thenEmits([deleted]);
    expect(opens(state)).toBe(false);
    link
      .given([created, deleted])
      .when(update({ active: true }))
      .thenThrows('not_found');
    link
      .given([created, deleted])
      .when({ type: 'DeleteShareLink', ...place, at: AT })
      .thenThrows('not_found');
  });

  it('finds no link through another site or organization, nor one never created', () => {
    link
      .given([created])
      .when(update({ active: false }, { siteId: 'w2', organization: 'o1' }))
      .thenThrows('not_found');
    link
      .given([created])
      .when(update({ active: false }, { siteId: 'w1', organization: 'o2' }))
      .thenThrows('not_found');
    link.when(update({ active: false })).thenThrows('not_found');
    expect(opens(fold(shareLinkDecider, []))).toBe(false);
  });
});
