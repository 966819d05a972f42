import { accessBelow, effectiveRole, resolveMembersLevel } from './content-access';

const open = { membersLevel: 'organization' as const, users: {}, teams: {} };

describe('effective role', () => {
  it('organization admins administer everything, even content closed to members', () => {
    expect(effectiveRole('admin', { ...open, membersLevel: null }, 'u1', [])).toBe('admin');
  });

  it('members get their own role where the level is inherited to the top, the level otherwise', () => {
    expect(effectiveRole('edit', open, 'u1', [])).toBe('edit');
    expect(effectiveRole('edit', { ...open, membersLevel: 'read' }, 'u1', [])).toBe('read');
    expect(effectiveRole('read', { ...open, membersLevel: 'review' }, 'u1', [])).toBe('review');
    expect(effectiveRole('edit', { ...open, membersLevel: null }, 'u1', [])).toBeNull();
  });

  it('guests get only grants; the strongest of the level and every grant wins', () => {
    const access = {
      membersLevel: 'read' as const,
      users: { u1: 'comment' as const },
      teams: { t1: 'edit' as const },
    };
    expect(effectiveRole(null, access, 'u2', [])).toBeNull();
    expect(effectiveRole(null, access, 'u1', [])).toBe('comment');
    expect(effectiveRole(null, access, 'u1', ['t1'])).toBe('edit');
    expect(effectiveRole('create', access, 'u1', ['t1'])).toBe('edit');
  });

  it('inherit resolves to the parent, and to the organization role at the top', () => {
    expect(resolveMembersLevel('inherit', undefined)).toBe('organization');
    expect(resolveMembersLevel('inherit', null)).toBeNull();
    expect(resolveMembersLevel('comment', 'admin')).toBe('comment');
    const below = accessBelow(
      { membersLevel: 'read', users: { u1: 'edit' }, teams: {} },
      { defaultLevel: 'inherit', users: { u1: 'read', u2: 'admin' }, teams: { t1: 'read' } },
    );
    expect(below).toEqual({
      membersLevel: 'read',
      users: { u1: 'edit', u2: 'admin' },
      teams: { t1: 'read' },
    });
  });
});
