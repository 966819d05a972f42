import { readContent } from '@app/documents/tree/content';
import { edit, newStore, paragraph } from '@app/documents/tree/content.testing';
import type { ContentEditor } from '@app/documents/tree/editor';
import { type Hash, type JsonValue, jsonEquals } from '@app/documents/tree/hash';
import { mapScan } from '@app/documents/tree/merkle-map';
import type { MemoryObjectStore } from '@app/documents/tree/objects';
import { canHaveChildren, type PageObject } from '@app/documents/tree/page';
import { getDocument, getVariables, listPages, type PageNode } from '@app/documents/tree/page-tree';
import { DomainError } from '@app/platform/domain/decider';
import fc from 'fast-check';
import { mergeRevisions } from './merge';

/**
 * Random edits on both sides of a random base. Everything the sides add is named after the side
 * (`o…`, `t…`), so additions never collide and two edits of one field always differ: where both sides
 * touch one thing, the merge must find the conflict.
 */
type Side = 'o' | 't';
/** Edits of one page, then edits of the tree, files and variables. */
const PAGE_KINDS = [
  'title',
  'emoji',
  'slug',
  'editBlock',
  'insertBlock',
  'deleteBlock',
  'moveBlock',
] as const;
const KINDS = [
  ...PAGE_KINDS,
  'insertPage',
  'deletePage',
  'movePage',
  'file',
  'deleteFile',
  'variable',
] as const;
type Kind = (typeof KINDS)[number];
interface Op {
  kind: Kind;
  a: number;
  b: number;
  c: number;
}
interface BasePage {
  parent: number;
  type: 'document' | 'group' | 'link';
  blocks: number;
}

const baseArb = fc.array(
  fc.record({
    parent: fc.nat(),
    type: fc.constantFrom<BasePage['type']>('document', 'document', 'document', 'group', 'link'),
    blocks: fc.integer({ min: 0, max: 4 }),
  }),
  { minLength: 2, maxLength: 10 },
);
const opsArb = (kinds: readonly Kind[], length: { minLength?: number; maxLength: number }) =>
  fc.array(fc.record({ kind: fc.constantFrom(...kinds), a: fc.nat(), b: fc.nat(), c: fc.nat() }), length);
const scriptArb = opsArb(KINDS, { maxLength: 6 });

const FILES = ['f0', 'f1'];
const file = (id: string, name: string) => ({
  id,
  name,
  contentType: 'text/plain',
  downloadURL: `https://x/${id}`,
  size: 1,
});

async function buildBase(store: MemoryObjectStore, pages: BasePage[]): Promise<Hash> {
  return edit(store, null, async (e) => {
    const types: string[] = [];
    for (const [i, page] of pages.entries()) {
      const pick = page.parent % (i + 1);
      const parent =
        pick > 0 && canHaveChildren(types[pick - 1] as never) && page.type !== 'group'
          ? `p${pick - 1}`
          : null;
      const id = `p${i}`;
      const nodes = Array.from({ length: page.blocks }, (_, j) => paragraph(`${id}b${j}`, 'base'));
      types.push(page.type);
      await e.insertPage({
        id,
        type: page.type,
        title: `Page ${i}`,
        parent,
        ...(page.type === 'link' ? { target: { kind: 'url', url: 'https://x' } } : { slug: `s${i}` }),
        ...(page.type === 'document' && nodes.length > 0
          ? { document: { object: 'document', data: {}, nodes } }
          : {}),
      });
    }
    for (const id of FILES) await e.putFile(file(id, 'base'));
    e.setVariables({ v0: 'base', v1: 'base' });
  });
}

const flatten = (pages: PageNode[]): PageNode[] => pages.flatMap((p) => [p, ...flatten(p.pages)]);

/** What one side may touch: all of the content, or (to keep the sides apart) a region of its own. */
interface Scope {
  pages?: Set<string>;
  file?: string;
  variable?: string;
}

async function applyScript(
  store: MemoryObjectStore,
  base: Hash,
  side: Side,
  script: Op[],
  scope: Scope = {},
) {
  let n = 0;
  return edit(store, base, async (e) => {
    for (const op of script) {
      n++;
      const name = `${side}${n}`;
      try {
        await applyOp(store, e, op, name, scope);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error; // an edit the tree refuses is skipped
      }
    }
  });
}

async function applyOp(store: MemoryObjectStore, e: ContentEditor, op: Op, name: string, scope: Scope) {
  const { root } = await (async () => {
    const committed = e.commit();
    store.add(committed.created);
    return committed;
  })();
  const all = flatten(await listPages(store, root));
  const pool = all.filter((p) => !scope.pages || scope.pages.has(p.id));
  const page = pool[op.a % Math.max(pool.length, 1)];
  const parents = pool.filter((p) => canHaveChildren(p.type));
  const parentPick = op.b % (parents.length + 1);
  const parent = parentPick === 0 ? null : parents[parentPick - 1].id;
  switch (op.kind) {
    case 'insertPage': {
      const link = op.c % 4 === 0;
      await e.insertPage({
        id: name,
        type: link ? 'link' : 'document',
        title: name,
        parent,
        index: op.c % 4,
        ...(link
          ? { target: { kind: 'url', url: `https://${name}` } }
          : { slug: name, document: { object: 'document', data: {}, nodes: [paragraph(`${name}b`, name)] } }),
      });
      scope.pages?.add(name);
      return;
    }
    case 'file':
      return e.putFile(file(scope.file ?? FILES[op.a % 2], name));
    case 'deleteFile':
      return e.deleteFile(scope.file ?? FILES[op.a % 2]);
    case 'variable':
      return e.setVariables({
        ...(await getVariables(store, root)),
        [scope.variable ?? `v${op.a % 2}`]: name,
      });
  }
  if (!page) return;
  switch (op.kind) {
    case 'title':
      return e.updatePage(page.id, { title: name });
    case 'emoji':
      return e.updatePage(page.id, { emoji: name });
    case 'slug':
      return e.updatePage(page.id, { slug: name });
    case 'deletePage':
      return e.deletePage(page.id);
    case 'movePage':
      return e.movePage(page.id, { parent, index: op.c % 4 });
  }
  if (page.type !== 'document') return;
  const body = (
    page.documentId ? await getDocument(store, page.documentId) : { object: 'document', data: {}, nodes: [] }
  ) as {
    nodes: JsonValue[];
  };
  const nodes = [...body.nodes];
  const i = op.b % Math.max(nodes.length, 1);
  if (op.kind === 'insertBlock') nodes.splice(op.b % (nodes.length + 1), 0, paragraph(`${name}k`, name));
  else if (nodes.length === 0) return;
  else if (op.kind === 'editBlock') nodes[i] = paragraph((nodes[i] as { key: string }).key, name);
  else if (op.kind === 'deleteBlock') nodes.splice(i, 1);
  else if (op.kind === 'moveBlock') nodes.splice(op.c % nodes.length, 0, ...nodes.splice(i, 1));
  await e.updatePage(page.id, { document: { ...body, nodes } });
}

/** Page, file and variable values of a revision, by id: the whole content, comparable item by item. */
async function snapshot(store: MemoryObjectStore, root: Hash) {
  const content = await readContent(store, root);
  const hashes = async (map: Hash | null) =>
    new Map((await mapScan(store, map)).map(([k, v]) => [k, v as Hash]));
  return {
    pages: await hashes(content.pages),
    files: await hashes(content.files),
    variables: (await getVariables(store, root)) as Record<string, JsonValue>,
  };
}

/** The value a merge must give an item: the side that changed it wins (both changing it conflicts). */
const expected = <T>(base: T | undefined, ours: T | undefined, theirs: T | undefined) =>
  jsonEquals(ours, base) ? theirs : ours;

/**
 * A base and both sides' edits. `regions`: each side keeps to pages of its own (and a file and a
 * variable of its own); `page`: both sides edit the first document page only; `all`: anything.
 */
async function world(pages: BasePage[], ours: Op[], theirs: Op[], scope: 'all' | 'regions' | 'page') {
  const store = newStore();
  const base = await buildBase(store, pages);
  const scopes: Record<Side, Scope> = { o: {}, t: {} };
  if (scope === 'page') {
    const page = flatten(await listPages(store, base)).find((p) => p.type === 'document');
    scopes.o = { pages: new Set(page ? [page.id] : []) };
    scopes.t = { pages: new Set(page ? [page.id] : []) };
  }
  if (scope === 'regions') {
    // Top-level pages alternate between the sides; each side keeps to its pages' subtrees.
    const top = await listPages(store, base);
    top.forEach((p, i) => {
      const scope = scopes[i % 2 === 0 ? 'o' : 't'];
      scope.pages ??= new Set();
      for (const q of flatten([p])) scope.pages.add(q.id);
    });
    scopes.o = { pages: scopes.o.pages ?? new Set(), file: 'f0', variable: 'v0' };
    scopes.t = { pages: scopes.t.pages ?? new Set(), file: 'f1', variable: 'v1' };
  }
  const o = await applyScript(store, base, 'o', ours, scopes.o);
  const t = await applyScript(store, base, 't', theirs, scopes.t);
  return { store, base, ours: o, theirs: t };
}

const blocksOf = async (store: MemoryObjectStore, page: PageObject | undefined) => {
  if (!page?.documentId) return new Map<string, JsonValue>();
  const body = (await getDocument(store, page.documentId)) as { nodes: Array<{ key: string }> };
  return new Map(body.nodes.map((node) => [node.key, node as JsonValue]));
};

/** Every field and block of every page of the merge comes from the side that changed it, or the base. */
async function expectEveryChangeKept(
  store: MemoryObjectStore,
  base: Hash,
  ours: Hash,
  theirs: Hash,
  merged: Hash,
) {
  const [b, o, t, m] = await Promise.all([base, ours, theirs, merged].map((root) => snapshot(store, root)));
  const read = (hash: Hash | undefined) => (hash ? (store.get(hash) as PageObject) : undefined);
  for (const id of new Set([...b.pages.keys(), ...o.pages.keys(), ...t.pages.keys()])) {
    const [pb, po, pt, pm] = [b, o, t, m].map((s) => read(s.pages.get(id)));
    expect({ id, present: pm !== undefined }).toEqual({ id, present: expected(pb, po, pt) !== undefined });
    if (!pm) continue;
    const fields = new Set([pb, po, pt, pm].flatMap((p) => Object.keys(p ?? {})));
    fields.delete('documentId');
    for (const field of fields) {
      const want = expected(
        pb?.[field as keyof PageObject],
        po?.[field as keyof PageObject],
        pt?.[field as keyof PageObject],
      );
      expect({ id, field, value: pm[field as keyof PageObject] }).toEqual({ id, field, value: want });
    }
    const [bb, bo, bt, bm] = await Promise.all([pb, po, pt, pm].map((p) => blocksOf(store, p)));
    for (const key of new Set([...bb.keys(), ...bo.keys(), ...bt.keys(), ...bm.keys()])) {
      expect({ id, key, block: bm.get(key) }).toEqual({
        id,
        key,
        block: expected(bb.get(key), bo.get(key), bt.get(key)),
      });
    }
  }
  for (const id of new Set([...b.files.keys(), ...o.files.keys(), ...t.files.keys()])) {
    expect({ id, file: m.files.get(id) }).toEqual({
      id,
      file: expected(b.files.get(id), o.files.get(id), t.files.get(id)),
    });
  }
  for (const name of new Set([
    ...Object.keys(b.variables),
    ...Object.keys(o.variables),
    ...Object.keys(t.variables),
  ])) {
    const want = expected(b.variables[name], o.variables[name], t.variables[name]);
    expect({ name, value: m.variables[name] }).toEqual({ name, value: want });
  }
}

/** A valid tree: every page is reachable from the top (no orphan, no cycle), sibling slugs are unique. */
async function expectValidTree(store: MemoryObjectStore, root: Hash) {
  const listed = flatten(await listPages(store, root));
  expect(listed.length).toBe((await snapshot(store, root)).pages.size);
  const check = (pages: PageNode[]) => {
    const slugs = pages.flatMap((p) => (p.slug === undefined ? [] : [p.slug]));
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const p of pages) check(p.pages);
  };
  check(await listPages(store, root));
}

const RUNS = { numRuns: 60 };

describe('mergeRevisions, on random edits of both sides', () => {
  it('(a) keeps every change of both sides when they touch disjoint pages', async () => {
    await fc.assert(
      fc.asyncProperty(baseArb, scriptArb, scriptArb, async (pages, ours, theirs) => {
        const w = await world(pages, ours, theirs, 'regions');
        const merged = await mergeRevisions(w.store, w.base, w.ours, w.theirs);
        expect(merged).toMatchObject({ result: 'merge' });
        if (merged.result !== 'merge') return;
        w.store.add(merged.created);
        const [o, t, b, m] = await Promise.all(
          [w.ours, w.theirs, w.base, merged.root].map((r) => snapshot(w.store, r)),
        );
        for (const id of new Set([...b.pages.keys(), ...o.pages.keys(), ...t.pages.keys()])) {
          const want = o.pages.get(id) !== b.pages.get(id) ? o.pages.get(id) : t.pages.get(id);
          expect({ id, page: m.pages.get(id) }).toEqual({ id, page: want });
        }
        await expectEveryChangeKept(w.store, w.base, w.ours, w.theirs, merged.root);
        await expectValidTree(w.store, merged.root);
      }),
      RUNS,
    );
  });

  it('(b) merging a side with an unchanged base answers that side', async () => {
    await fc.assert(
      fc.asyncProperty(baseArb, scriptArb, async (pages, script) => {
        const w = await world(pages, script, [], 'all');
        expect(await mergeRevisions(w.store, w.base, w.ours, w.base)).toMatchObject({
          result: 'merge',
          root: w.ours,
        });
        expect(await mergeRevisions(w.store, w.base, w.base, w.ours)).toMatchObject({
          result: 'merge',
          root: w.ours,
        });
        expect(await mergeRevisions(w.store, w.base, w.ours, w.ours)).toMatchObject({
          result: 'merge',
          root: w.ours,
        });
      }),
      { numRuns: 30 },
    );
  });

  it('(c, d, e) is deterministic, reports conflicts without a root, and applies no change by halves', async () => {
    let merges = 0;
    let conflicts = 0;
    await fc.assert(
      fc.asyncProperty(baseArb, scriptArb, scriptArb, async (pages, ours, theirs) => {
        const w = await world(pages, ours, theirs, 'all');
        const first = await mergeRevisions(w.store, w.base, w.ours, w.theirs);
        // The same inputs, built again in a store of their own, merge to the same answer.
        const again = await world(pages, ours, theirs, 'all');
        const second = await mergeRevisions(again.store, again.base, again.ours, again.theirs);
        expect(second).toEqual(first);
        if (first.result === 'conflicts') {
          conflicts++;
          expect(Object.keys(first).sort()).toEqual(['conflicts', 'result']);
          expect(first.conflicts.length).toBeGreaterThan(0);
          return;
        }
        merges++;
        w.store.add(first.created);
        await expectEveryChangeKept(w.store, w.base, w.ours, w.theirs, first.root);
        await expectValidTree(w.store, first.root);
      }),
      RUNS,
    );
    // Both outcomes were exercised.
    expect(merges).toBeGreaterThan(0);
    expect(conflicts).toBeGreaterThan(0);
  });

  it('(e) merges one page edited by both sides field by field and block by block, or reports a conflict', async () => {
    const pageOps = opsArb([...PAGE_KINDS, 'editBlock'], { minLength: 1, maxLength: 5 });
    const outcomes = { merge: 0, conflicts: 0 };
    await fc.assert(
      fc.asyncProperty(baseArb, pageOps, pageOps, async (pages, ours, theirs) => {
        const w = await world(pages, ours, theirs, 'page');
        const merged = await mergeRevisions(w.store, w.base, w.ours, w.theirs);
        outcomes[merged.result]++;
        if (merged.result === 'conflicts') {
          expect(merged.conflicts.every((c) => 'pageId' in c)).toBe(true);
          return;
        }
        w.store.add(merged.created);
        await expectEveryChangeKept(w.store, w.base, w.ours, w.theirs, merged.root);
      }),
      RUNS,
    );
    expect(outcomes.merge).toBeGreaterThan(0);
    expect(outcomes.conflicts).toBeGreaterThan(0);
  });

  it('reports both sides changing one field of one page as a conflict naming the page', async () => {
    await fc.assert(
      fc.asyncProperty(
        baseArb,
        fc.nat(),
        fc.constantFrom<Kind>('title', 'emoji'),
        async (pages, pick, kind) => {
          const op = { kind, a: pick, b: 0, c: 0 };
          const w = await world(pages, [op], [op], 'all');
          const merged = await mergeRevisions(w.store, w.base, w.ours, w.theirs);
          const page = flatten(await listPages(w.store, w.base))[pick % pages.length];
          const field = kind === 'title' ? 'title' : 'emoji';
          expect(merged).toEqual({
            result: 'conflicts',
            conflicts: [{ pageId: page.id, reason: 'edited-both', fields: [field] }],
          });
        },
      ),
      { numRuns: 30 },
    );
  });
});
