import type { ContentAccess, MembersLevel } from '../domain/content-access';
import { strongestGiven, widens } from './opening';

const access = (membersLevel: MembersLevel, users = {}, teams = {}): ContentAccess => ({
  membersLevel,
  users,
  teams,
});

describe('opening content', () => {
  it('gives at most create through the organization level, and exactly the role of a role', () => {
    expect(strongestGiven('organization')).toBe('create');
    expect(strongestGiven('edit')).toBe('edit');
    expect(strongestGiven(null)).toBeNull();
  });

  it('widens when members get access or a stronger role', () => {
    expect(widens(access(null), access('read'))).toBe(true);
    expect(widens(access(null), access('organization'))).toBe(true);
    expect(widens(access('read'), access('edit'))).toBe(true);
    expect(widens(access('read'), access('organization'))).toBe(true);
    expect(widens(access('organization'), access('edit'))).toBe(true);
    expect(widens(access('create'), access('organization'))).toBe(false);
    expect(widens(access('organization'), access('read'))).toBe(false);
    expect(widens(access('edit'), access('read'))).toBe(false);
    expect(widens(access('edit'), access(null))).toBe(false);
    expect(widens(access('organization'), access('organization'))).toBe(false);
  });

  it('widens when a user or team is granted more than they were', () => {
    expect(widens(access(null, { u: 'read' }), access(null, { u: 'edit' }))).toBe(true);
    expect(widens(access(null), access(null, {}, { t: 'read' }))).toBe(true);
    expect(widens(access(null, { u: 'edit' }), access(null, { u: 'read' }))).toBe(false);
    expect(widens(access(null, { u: 'edit' }, { t: 'admin' }), access(null, {}, { t: 'admin' }))).toBe(false);
  });
});
