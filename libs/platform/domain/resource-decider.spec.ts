import { invalid } from './decider';
import { spec } from './decider.testing';
import { resourceDecider } from './resource-decider';

const NAMES = {
  create: 'CreateLabel',
  update: 'UpdateLabel',
  delete: 'DeleteLabel',
  created: 'LabelCreated',
  updated: 'LabelUpdated',
  deleted: 'LabelDeleted',
} as const;

interface Label {
  name: string;
  tags: string[];
}

const labels = resourceDecider({
  what: 'Label',
  idKey: 'labelId',
  names: NAMES,
  create: (input: Partial<Label>): Label => {
    if (!input.name) throw invalid('name is required');
    return { name: input.name, tags: input.tags ?? [] };
  },
  update: (input: Partial<Label>) => input,
});

const t0 = Date.parse('2026-01-01T00:00:00Z');
const at = new Date(t0).toISOString();
const created = {
  type: 'LabelCreated' as const,
  data: { labelId: 'l1', organization: 'o1', name: 'Docs', tags: ['a'], createdAt: at },
};
const create = {
  type: 'CreateLabel' as const,
  labelId: 'l1',
  organization: 'o1',
  input: { name: 'Docs', tags: ['a'] },
  at: t0,
};
const update = (input: Partial<Label>, organization = 'o1') => ({
  type: 'UpdateLabel' as const,
  organization,
  input,
  at: t0,
});
const remove = (organization = 'o1') => ({ type: 'DeleteLabel' as const, organization, at: t0 });
const label = spec(labels);

describe('resourceDecider', () => {
  it('creates once, with the settings its rules check', () => {
    const state = label.when(create).thenEmits([created]);
    expect(state).toStrictEqual({
      status: 'active',
      labelId: 'l1',
      organization: 'o1',
      name: 'Docs',
      tags: ['a'],
    });
    label
      .given([created])
      .when(create)
      .thenThrows('conflict', /Label already exists/);
    label.when({ ...create, input: {} }).thenThrows('invalid', /name is required/);
  });

  it('records only the fields an update changes (lists compared by value), and nothing for none', () => {
    label
      .given([created])
      .when(update({ name: 'Docs', tags: ['a', 'b'] }))
      .thenEmits([
        {
          type: 'LabelUpdated',
          data: { labelId: 'l1', organization: 'o1', changes: { tags: ['a', 'b'] }, updatedAt: at },
        },
      ]);
    label
      .given([created])
      .when(update({ name: 'Docs', tags: ['a'] }))
      .thenNothing();
  });

  it('finds no resource of another organization, and none once deleted', () => {
    label
      .given([created])
      .when(update({ name: 'X' }, 'o2'))
      .thenThrows('not_found', /Label not found/);
    label.given([created]).when(remove('o2')).thenThrows('not_found');
    const deleted = {
      type: 'LabelDeleted' as const,
      data: { labelId: 'l1', organization: 'o1', deletedAt: at },
    };
    const state = label.given([created]).when(remove()).thenEmits([deleted]);
    expect(state).toStrictEqual({ status: 'deleted', labelId: 'l1', organization: 'o1' });
    label.given([created, deleted]).when(remove()).thenThrows('not_found');
    label
      .given([created, deleted])
      .when(update({ name: 'X' }))
      .thenThrows('not_found');
    label.when(remove()).thenThrows('not_found');
  });
});
