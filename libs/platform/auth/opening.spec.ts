import { strongestGiven } from './opening';

describe('opening content', () => {
  it('gives at most create through the organization level, and exactly the role of a role', () => {
    expect(strongestGiven('organization')).toBe('create');
    expect(strongestGiven('edit')).toBe('edit');
    expect(strongestGiven(null)).toBeNull();
  });
});
