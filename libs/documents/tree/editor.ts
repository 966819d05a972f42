import { conflict, invalid, notFound } from '@app/platform/domain/decider';
import {
  applyPageChanges,
  type ContentObject,
  childRange,
  EMPTY_CONTENT,
  type FileObject,
  getPageObject,
  type PageChange,
  parseChildKey,
  readContent,
  references,
  type Variables,
} from './content';
import type { Hash, JsonObject, JsonValue } from './hash';
import { mapDelete, mapGet, mapScan, mapSet } from './merkle-map';
import { type ObjectStore, ObjectWriter } from './objects';
import {
  canHaveChildren,
  checkPageId,
  checkSlug,
  checkTitle,
  compact,
  hasSlug,
  type PageFields,
  type PageObject,
  type PageType,
} from './page';
import { positionBetween } from './positions';

/** A new page: its fields, where it goes (`parent` null or absent: the top; `index` absent: last), its body. */
export type InsertPage = Omit<PageFields, 'documentId'> & {
  id: string;
  type: PageType;
  title: string;
  parent?: string | null;
  index?: number;
  document?: JsonValue;
};

/** Fields to change: a value sets the field, null removes it, absent leaves it; `document` replaces the body. */
export type PagePatch = { [K in Exclude<keyof PageFields, 'documentId'>]?: PageFields[K] | null } & {
  title?: string;
  document?: JsonValue | null;
};

export type ReusableContentInput = {
  id: string;
  title: string;
  document?: JsonValue;
  git?: { oid: string; path: string };
};

/** What a change made: the new content root, and the objects to persist so that the root can be read. */
export interface Commit {
  root: Hash;
  created: Map<Hash, unknown>;
}

const PAGE_TYPES: readonly PageType[] = ['document', 'group', 'link', 'computed'];
/** Fields an update may not set: identity and place (moves have their own operation) and the body's hash. */
const FIXED_FIELDS = new Set(['id', 'type', 'parent', 'position', 'documentId']);

/**
 * Edits one revision's content into the next. Each operation checks GitBook's rules (unique sibling
 * slugs, groups only at the top, children only under documents and groups, no page under itself) and
 * throws a DomainError when one is broken; `commit` answers the new root and the objects it needs.
 * Operations apply in order, as a batch of GitBook content changes does; nothing is stored meanwhile.
 */
export class ContentEditor {
  private constructor(
    private readonly writer: ObjectWriter,
    private content: ContentObject,
  ) {}

  /** Starts from a stored content root, or from empty content when `root` is null. */
  static async open(store: ObjectStore, root: Hash | null): Promise<ContentEditor> {
    const writer = new ObjectWriter(store);
    return new ContentEditor(writer, root === null ? EMPTY_CONTENT : await readContent(writer, root));
  }

  commit(): Commit {
    const root = this.writer.put(this.content);
    return { root, created: this.writer.created(root, references) };
  }

  /**
   * The content as edited so far and a store to read it with, for the read functions of tree/ (paths,
   * children, documents): a batch of changes decides later edits from earlier ones. Read-only.
   */
  snapshot(): { store: ObjectStore; content: ContentObject } {
    return { store: { get: (hash) => this.writer.get(hash) }, content: this.content };
  }

  async insertPage(input: InsertPage): Promise<void> {
    const { index, document, parent = null, ...fields } = input;
    checkPageId(input.id);
    if (!PAGE_TYPES.includes(input.type)) throw invalid(`unknown page type ${JSON.stringify(input.type)}`);
    if (await this.findPage(input.id)) throw conflict(`page ${input.id} already exists`);
    if (document !== undefined && input.type !== 'document')
      throw invalid('only document pages have a document');
    await this.checkParent(input.type, parent);
    const page = compact({
      ...fields,
      parent,
      position: await this.positionAt(parent, index),
      documentId: document === undefined ? undefined : this.writer.put(document),
    }) as PageObject;
    checkFields(page);
    await this.apply([{ id: page.id, before: undefined, after: page }]);
  }

  async updatePage(id: string, patch: PagePatch): Promise<void> {
    const before = await this.page(id);
    const next: Record<string, unknown> = { ...before };
    for (const [field, value] of Object.entries(patch)) {
      if (FIXED_FIELDS.has(field)) throw invalid(`a page's ${field} cannot be updated`);
      if (field === 'document') {
        if (before.type !== 'document' && value !== null)
          throw invalid('only document pages have a document');
        next.documentId = value === null || value === undefined ? undefined : this.writer.put(value);
      } else if (value === null) next[field] = undefined;
      else if (value !== undefined) next[field] = value;
    }
    const after = compact(next) as PageObject;
    checkFields(after);
    await this.apply([{ id, before, after }]);
  }

  /**
   * Moves a page (with its subtree), as GitBook's `update_page` with `into`/`at` does: `parent` absent
   * keeps the parent, null moves to the top; `index` is among the new siblings, absent keeps the place
   * when the parent does not change and appends otherwise.
   */
  async movePage(id: string, to: { parent?: string | null; index?: number }): Promise<void> {
    const before = await this.page(id);
    const parent = to.parent === undefined ? before.parent : to.parent;
    if (parent === before.parent) {
      const siblings = (await this.children(parent)).map((c) => c.id);
      if (to.index === undefined || clampIndex(to.index, siblings.length - 1) === siblings.indexOf(id))
        return;
    }
    await this.checkParent(before.type, parent);
    for (let above = parent; above !== null; above = (await this.page(above)).parent) {
      if (above === id) throw invalid(`page ${id} cannot move under itself`);
    }
    const after = { ...before, parent, position: await this.positionAt(parent, to.index, id) };
    await this.apply([{ id, before, after }]);
  }

  /** Deletes a page and its subtree; answers the ids deleted, the page's own first. */
  async deletePage(id: string): Promise<string[]> {
    const changes: PageChange[] = [];
    const pending = [id];
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
      changes.push({ id: next, before: await this.page(next), after: undefined });
      pending.push(...(await this.children(next)).map((c) => c.id));
    }
    await this.apply(changes);
    return changes.map((c) => c.id);
  }

  async putFile(file: FileObject): Promise<void> {
    checkPageId(file.id);
    if (typeof file.name !== 'string' || file.name.length === 0) throw invalid('a file needs a name');
    this.content = {
      ...this.content,
      files: await mapSet(this.writer, this.content.files, file.id, this.writer.put(compact(file))),
    };
  }

  async deleteFile(id: string): Promise<void> {
    if ((await mapGet(this.writer, this.content.files, id)) === undefined)
      throw notFound(`file ${id} not found`);
    this.content = { ...this.content, files: await mapDelete(this.writer, this.content.files, id) };
  }

  async putReusableContent({ document, ...input }: ReusableContentInput): Promise<void> {
    checkPageId(input.id);
    checkTitle(input.title);
    const object = compact({
      ...input,
      documentId: document === undefined ? undefined : this.writer.put(document),
    });
    this.content = {
      ...this.content,
      reusables: await mapSet(this.writer, this.content.reusables, input.id, this.writer.put(object)),
    };
  }

  async deleteReusableContent(id: string): Promise<void> {
    if ((await mapGet(this.writer, this.content.reusables, id)) === undefined) {
      throw notFound(`reusable content ${id} not found`);
    }
    this.content = { ...this.content, reusables: await mapDelete(this.writer, this.content.reusables, id) };
  }

  /** Replaces the revision's variables (string values, as GitBook's `Variables`). */
  setVariables(variables: Variables): void {
    const empty = Object.keys(compact(variables)).length === 0;
    this.content = { ...this.content, variables: empty ? null : this.writer.put(compact(variables)) };
  }

  private async findPage(id: string): Promise<PageObject | undefined> {
    return getPageObject(this.writer, this.content, id);
  }

  private async page(id: string): Promise<PageObject> {
    const page = await this.findPage(id);
    if (!page) throw notFound(`page ${id} not found`);
    return page;
  }

  private async children(parent: string | null): Promise<Array<{ id: string; position: string }>> {
    const entries = await mapScan(this.writer, this.content.children, childRange(parent));
    return entries.map(([key]) => parseChildKey(key));
  }

  private async checkParent(type: PageType, parent: string | null): Promise<void> {
    if (parent === null) return;
    if (type === 'group') throw invalid('groups are only at the top level');
    const above = await this.findPage(parent);
    if (!above) throw notFound(`parent page ${parent} not found`);
    if (!canHaveChildren(above.type)) throw invalid(`a ${above.type} page cannot have child pages`);
  }

  /**
   * A position that puts a page at `index` among the children of `parent` (without `exclude`, the page
   * being moved). Siblings that share a position (two sides inserted at one place, then merged) count
   * as one gap: the page goes after them.
   */
  private async positionAt(
    parent: string | null,
    index: number | undefined,
    exclude?: string,
  ): Promise<string> {
    const positions = (await this.children(parent)).filter((c) => c.id !== exclude).map((c) => c.position);
    const at = index === undefined ? positions.length : clampIndex(index, positions.length);
    const before = at > 0 ? positions[at - 1] : null;
    let next = at;
    while (before !== null && next < positions.length && positions[next] <= before) next++;
    return positionBetween(before, next < positions.length ? positions[next] : null);
  }

  private async apply(changes: PageChange[]): Promise<void> {
    const { content, collisions } = await applyPageChanges(this.writer, this.content, changes);
    const [first] = collisions;
    if (first) throw conflict(`slug "${first.slug}" is already used by page ${first.otherPageId}`);
    this.content = content;
  }
}

const clampIndex = (index: number, max: number) => Math.max(0, Math.min(Math.trunc(index), max));

function checkFields(page: PageObject): void {
  checkTitle(page.title);
  if (hasSlug(page.type)) {
    if (page.slug === undefined) throw invalid(`a ${page.type} page needs a slug`);
    checkSlug(page.slug);
  } else if (page.slug !== undefined) throw invalid(`a ${page.type} page has no slug`);
  for (const field of ['layout', 'cover', 'variables', 'target', 'computed', 'frontmatter'] as const) {
    const value: JsonObject | undefined = page[field];
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw invalid(`a page's ${field} is an object`);
    }
  }
}
