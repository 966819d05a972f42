import { markdownToDocument } from '@app/documents/document';
import { doc, paragraph } from '@app/documents/tree/content.testing';
import type { JsonObject } from '@app/documents/tree/hash';
import { mergeDocuments } from './blocks';

const base = doc(['a', 'A'], ['b', 'B'], ['c', 'C'], ['d', 'D']);

describe('mergeDocuments', () => {
  it('keeps edits of different blocks from both sides', () => {
    const ours = doc(['a', 'A1'], ['b', 'B'], ['c', 'C'], ['d', 'D']);
    const theirs = doc(['a', 'A'], ['b', 'B'], ['c', 'C'], ['d', 'D2']);
    expect(mergeDocuments(base, ours, theirs)).toEqual({
      ok: true,
      document: doc(['a', 'A1'], ['b', 'B'], ['c', 'C'], ['d', 'D2']),
    });
  });

  it('keeps inserts and deletes of blocks from both sides', () => {
    const ours = doc(['a', 'A'], ['x', 'X'], ['b', 'B'], ['c', 'C'], ['d', 'D']);
    const theirs = doc(['a', 'A'], ['b', 'B'], ['c', 'C']);
    expect(mergeDocuments(base, ours, theirs)).toEqual({
      ok: true,
      document: doc(['a', 'A'], ['x', 'X'], ['b', 'B'], ['c', 'C']),
    });
  });

  it('keeps both sides’ blocks inserted at the same place, ours first', () => {
    const ours = doc(['a', 'A'], ['b', 'B'], ['c', 'C'], ['d', 'D'], ['o', 'O']);
    const theirs = doc(['a', 'A'], ['b', 'B'], ['c', 'C'], ['d', 'D'], ['t', 'T']);
    expect(mergeDocuments(base, ours, theirs)).toEqual({
      ok: true,
      document: doc(['a', 'A'], ['b', 'B'], ['c', 'C'], ['d', 'D'], ['o', 'O'], ['t', 'T']),
    });
  });

  it('deletes a block next to one the other side inserts', () => {
    const ours = doc(['a', 'A'], ['c', 'C'], ['d', 'D']);
    const theirs = doc(['a', 'A'], ['b', 'B'], ['n', 'N'], ['c', 'C'], ['d', 'D']);
    expect(mergeDocuments(base, ours, theirs)).toEqual({
      ok: true,
      document: doc(['a', 'A'], ['n', 'N'], ['c', 'C'], ['d', 'D']),
    });
  });

  it('keeps a block moved on one side and edited on the other, moved and edited', () => {
    const ours = doc(['b', 'B'], ['c', 'C'], ['d', 'D'], ['a', 'A']);
    const theirs = doc(['a', 'A2'], ['b', 'B'], ['c', 'C'], ['d', 'D']);
    expect(mergeDocuments(base, ours, theirs)).toEqual({
      ok: true,
      document: doc(['b', 'B'], ['c', 'C'], ['d', 'D'], ['a', 'A2']),
    });
  });

  it('reports a block both sides changed differently', () => {
    const ours = doc(['a', 'A'], ['b', 'B1'], ['c', 'C'], ['d', 'D']);
    const theirs = doc(['a', 'A'], ['b', 'B2'], ['c', 'C'], ['d', 'D']);
    expect(mergeDocuments(base, ours, theirs)).toEqual({ ok: false, blocks: ['b'], fields: [] });
  });

  it('agrees with two sides that made the same change', () => {
    const both = doc(['a', 'A'], ['b', 'B1'], ['c', 'C'], ['d', 'D']);
    expect(mergeDocuments(base, both, both)).toEqual({ ok: true, document: both });
  });

  it('reports a block deleted on one side and changed on the other', () => {
    const ours = doc(['a', 'A'], ['c', 'C'], ['d', 'D']);
    const theirs = doc(['a', 'A'], ['b', 'B2'], ['c', 'C'], ['d', 'D']);
    expect(mergeDocuments(base, ours, theirs)).toMatchObject({ ok: false, blocks: ['b'] });
  });

  it('reports a block both sides moved to different places', () => {
    const ours = doc(['b', 'B'], ['c', 'C'], ['a', 'A'], ['d', 'D']);
    const theirs = doc(['b', 'B'], ['c', 'C'], ['d', 'D'], ['a', 'A']);
    const merged = mergeDocuments(base, ours, theirs);
    expect(merged.ok).toBe(false);
    expect((merged as { blocks: string[] }).blocks).toContain('a');
  });

  it('merges the document’s own fields and reports both sides changing one', () => {
    const withData = (data: JsonObject, ...blocks: Array<[string, string]>) => ({
      ...(doc(...blocks) as JsonObject),
      data,
    });
    const b = withData({ schemaVersion: 1 }, ['a', 'A']);
    expect(
      mergeDocuments(
        b,
        withData({ schemaVersion: 2 }, ['a', 'A']),
        withData({ schemaVersion: 3 }, ['a', 'A2']),
      ),
    ).toEqual({
      ok: false,
      blocks: [],
      fields: ['data'],
    });
  });

  it('merges a document without keyed blocks only whole', () => {
    const unkeyed = (text: string) => ({
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'p', text }],
    });
    expect(mergeDocuments(unkeyed('a'), unkeyed('b'), unkeyed('c'))).toEqual({
      ok: false,
      blocks: [],
      fields: ['document'],
    });
    expect(mergeDocuments(unkeyed('a'), unkeyed('b'), unkeyed('a'))).toEqual({
      ok: true,
      document: unkeyed('b'),
    });
    expect(paragraph('k', 't')).toMatchObject({ key: 'k' });
  });
});

describe('neighbouring blocks', () => {
  const doc = (markdown: string) => markdownToDocument(markdown).document as never;

  it('keeps both sides edits of two neighbouring paragraphs', () => {
    const merged = mergeDocuments(
      doc('First paragraph.\n\nSecond paragraph.\n'),
      doc('First, edited by A.\n\nSecond paragraph.\n'),
      doc('First paragraph.\n\nSecond, edited by B.\n'),
    );
    expect(merged).toEqual({ ok: true, document: doc('First, edited by A.\n\nSecond, edited by B.\n') });
  });

  it('still refuses two sides editing the same paragraph differently', () => {
    const merged = mergeDocuments(
      doc('One.\n\nTwo.\n'),
      doc('One by A.\n\nTwo.\n'),
      doc('One by B.\n\nTwo.\n'),
    );
    expect(merged.ok).toBe(false);
  });
});
