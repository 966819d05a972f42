import { markdownToDocument } from '@app/documents/document';
import { getFile } from '@app/documents/tree/page-tree';
import {
  documentOf,
  givenSpace,
  refsOf,
  type Space,
  sequentialIds,
  whenApplied,
  whenRefused,
} from './changes.testing';
import { MAX_FILE_BYTES } from './files';
import type { ContentChangeInput } from './types';

const files = (...list: Array<Record<string, unknown>>): ContentChangeInput =>
  ({ operation: 'insert_files', files: list }) as ContentChangeInput;
const insert = (markdown: string, fields: Record<string, unknown> = {}): ContentChangeInput =>
  ({ operation: 'insert_page', document: { markdown }, ...fields }) as ContentChangeInput;

describe('insert_files', () => {
  it('records a URL file (type from its extension, size 0) and a base64 one with its bytes apart', async () => {
    const space = await givenSpace();
    const bytes = Buffer.from('GIF89a…');
    const applied = await whenApplied(space, [
      files(
        { name: 'Diagram.PNG', url: 'https://example.com/d.png' },
        { name: 'raw', contentType: 'image/gif', base64: bytes.toString('base64') },
        { name: 'notes.bin', contentType: 'text/plain', url: 'http://example.com/n' },
      ),
    ]);
    expect(applied.insertedFiles).toEqual([
      {
        id: 'n1',
        name: 'Diagram.PNG',
        contentType: 'image/png',
        downloadURL: 'https://example.com/d.png',
        size: 0,
      },
      { id: 'n2', name: 'raw', contentType: 'image/gif', downloadURL: '', size: bytes.length, bytes },
      {
        id: 'n3',
        name: 'notes.bin',
        contentType: 'text/plain',
        downloadURL: 'http://example.com/n',
        size: 0,
      },
    ]);
    // The content holds the file without its bytes.
    expect(await getFile(space.store, space.root, 'n2')).toEqual({
      id: 'n2',
      name: 'raw',
      contentType: 'image/gif',
      downloadURL: '',
      size: bytes.length,
    });
    expect(applied.outcomes).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'both sources',
      { name: 'a', url: 'https://x.test/a', base64: 'AAAA' },
      'files[0]: must have exactly one of url and base64',
    ],
    ['no source', { name: 'a' }, 'files[0]: must have exactly one of url and base64'],
    [
      'base64 without a content type',
      { name: 'a', base64: 'AAAA' },
      'files[0].contentType: is required with base64',
    ],
    [
      'a content type its download could not be served with',
      { name: 'a', contentType: 'text/plain\nx-injected: 1', base64: 'AAAA' },
      'files[0].contentType: must be a MIME type, as type/subtype',
    ],
    [
      'bytes that are not base64',
      { name: 'a', contentType: 'x/y', base64: 'no!' },
      'files[0].base64: is not valid base64',
    ],
    [
      'more than 1 MiB',
      { name: 'a', contentType: 'x/y', base64: Buffer.alloc(MAX_FILE_BYTES + 1).toString('base64') },
      'files[0].base64: decodes to more than 1 MiB',
    ],
    [
      'a URL that is not http(s)',
      { name: 'a', url: 'file:///etc/passwd' },
      'files[0].url: must be an http(s) URL',
    ],
    ['no name', { url: 'https://x.test/a' }, 'files[0].name: must be a non-empty string'],
  ])('refuses %s', async (_, file, message) => {
    const space = await givenSpace();
    const error = await whenRefused(space, [files({ name: 'ok', url: 'https://x.test/ok' }, file)]);
    expect(error).toMatchObject({
      kind: 'invalid',
      message: `changes[0].${message.replace('files[0]', 'files[1]')}`,
    });
  });

  it('accepts exactly 1 MiB', async () => {
    const space = await givenSpace();
    const base64 = Buffer.alloc(MAX_FILE_BYTES).toString('base64');
    const applied = await whenApplied(space, [files({ name: 'a', contentType: 'x/y', base64 })]);
    expect(applied.insertedFiles[0].size).toBe(MAX_FILE_BYTES);
  });

  it('refuses an empty list', async () => {
    expect(await whenRefused(await givenSpace(), [files()])).toMatchObject({
      kind: 'invalid',
      message: 'changes[0].files: must list 1 to 20 files',
    });
  });
});

describe('links in Markdown bodies', () => {
  async function linksOf(space: Space, page: string) {
    return refsOf(await documentOf(space, page));
  }

  it("resolve a batch's page and file refs, whatever the order of the changes", async () => {
    const space = await givenSpace();
    await whenApplied(space, [
      insert('[Next](./second.md) and ![Chart](./chart) and [Also](./second#part)', { title: 'First' }),
      files({ ref: 'chart', name: 'chart.png', url: 'https://x.test/c.png' }),
      insert('[Back](./first.md)', { title: 'Second', ref: 'second' }),
    ]);
    // Ids: n1 the first page, n2 the file, n3 the second page.
    expect(await linksOf(space, 'n1')).toEqual([
      { kind: 'page', page: 'n3' },
      { kind: 'file', file: 'n2' },
      { kind: 'anchor', page: 'n3', anchor: 'part' },
    ]);
    // "first" is no ref, but the first page is in the tree by then, at that path.
    expect(await linksOf(space, 'n3')).toEqual([{ kind: 'page', page: 'n1' }]);
  });

  it('resolve /pages/<id>, /pages/<slug path>, Git file paths and /files/<id> against the current tree', async () => {
    const space = await givenSpace();
    await whenApplied(space, [files({ name: 'f.png', url: 'https://x.test/f.png' })], {
      newId: sequentialIds('f'),
    });
    const markdown = [
      '[a](/pages/setup)',
      '[b](/pages/setup#install)',
      '[c](/pages/guides/usage)',
      '[d](/pages/guides/usage.md)',
      '[e](/pages/guides/README.md)',
      '[f](/files/f1)',
      '[g](/pages/nope)',
      '[h](/files/nope)',
      '[i](https://example.com/x)',
      '[j](#local)',
    ].join('\n\n');
    await whenApplied(space, [insert(markdown, { title: 'Links' })]);
    expect(await linksOf(space, 'n1')).toEqual([
      { kind: 'page', page: 'setup' },
      { kind: 'anchor', page: 'setup', anchor: 'install' },
      { kind: 'page', page: 'usage' },
      { kind: 'page', page: 'usage' },
      { kind: 'page', page: 'guides' },
      { kind: 'file', file: 'f1' },
      { kind: 'url', url: '/pages/nope' },
      { kind: 'url', url: '/files/nope' },
      { kind: 'url', url: 'https://example.com/x' },
      { kind: 'url', url: '#local' },
    ]);
  });

  it("resolve relative Markdown links from the page's folder in Git's layout; others stay", async () => {
    const space = await givenSpace();
    await whenApplied(space, [
      insert('[a](./usage.md) [b](../intro.md) [c](./README.md) [d](../../x.md) [e](./missing.md)', {
        title: 'Install',
        into: 'guides',
      }),
      // `guides` has children: its file is guides/README.md, so `./setup.md` is its child.
      { operation: 'update_page', page: 'guides', document: { markdown: '[f](./setup.md) [g](../intro)' } },
    ]);
    expect(await linksOf(space, 'n1')).toEqual([
      { kind: 'page', page: 'usage' },
      { kind: 'page', page: 'intro' },
      { kind: 'page', page: 'guides' },
      { kind: 'url', url: '../../x.md' },
      { kind: 'url', url: './missing.md' },
    ]);
    expect(await linksOf(space, 'guides')).toEqual([
      { kind: 'page', page: 'setup' },
      { kind: 'page', page: 'intro' },
    ]);
  });

  it('key the blocks again from their content once links are resolved', async () => {
    const space = await givenSpace();
    await whenApplied(space, [insert('[a](/pages/setup)\n\nplain', { title: 'A' })], {
      newId: sequentialIds('a'),
    });
    await whenApplied(space, [insert('[a](/pages/usage)\n\nplain', { title: 'B' })], {
      newId: sequentialIds('b'),
    });
    const [a, b] = [await documentOf(space, 'a1'), await documentOf(space, 'b1')];
    const unresolved = markdownToDocument('[a](/pages/setup)\n\nplain').document;
    expect(a?.nodes[1].key).toBe(b?.nodes[1].key);
    expect(a?.nodes[1].key).toBe(unresolved.nodes[1].key);
    expect(a?.nodes[0].key).not.toBe(unresolved.nodes[0].key);
  });
});
