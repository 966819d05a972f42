import { randomBytes } from 'node:crypto';
import { normalizeMarkdown } from '@app/documents/document/markdown-syntax';
import { useTestApp } from '../support/app-harness';
import { changeRequestSetup, insertPage, messageOf } from '../support/change-request-setup';

/** Paragraphs of words of random letters: Markdown that no compression shrinks much. */
function randomMarkdown(bytes: number): string {
  const paragraphs: string[] = [];
  let size = 0;
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  while (size < bytes - 1200) {
    const random = randomBytes(800);
    const words: string[] = [];
    for (let i = 0; i < random.length; i += 8)
      words.push(
        Array.from(random.subarray(i, i + 8), (b) => alphabet[b % alphabet.length])
          .join('')
          .slice(0, 3 + (random[i] % 6)),
      );
    const paragraph = words.join(' ');
    paragraphs.push(paragraph);
    size += paragraph.length + 2;
  }
  return `${paragraphs.join('\n\n')}\n`;
}

/** About `bytes` of documentation-like Markdown: headings, prose, lists, code, a table. */
function docsPage(n: number, bytes: number): string {
  const parts = [`Introduction to topic ${n}.\n`];
  let size = parts[0].length;
  for (let s = 0; size < bytes; s++) {
    const section = [
      `## Section ${s} of topic ${n}`,
      `This section explains how **option ${s}** changes the behaviour of *topic ${n}*, with a [link](https://example.com/${n}/${s}) and \`code_${s}\`. ${randomBytes(24).toString('hex')}`,
      `* first point about ${s}\n* second point, longer, about the way ${n} and ${s} interact`,
      `\`\`\`js\nconst value${s} = configure({ topic: ${n}, option: ${s} });\n\`\`\``,
      `| key | value |\n| --- | ----- |\n| ${s} | ${n}   |`,
    ].join('\n\n');
    parts.push(section);
    size += section.length + 2;
  }
  return `${parts.join('\n\n')}\n`;
}

// Made before any request: made between two, they would keep the client busy past the server's keep-alive.
const PAGES = Array.from({ length: 40 }, (_, n) => normalizeMarkdown(docsPage(n, 30 * 1024)));
const LARGE = normalizeMarkdown(randomMarkdown(1024 * 1024 - 64));

describe('pages of real sizes', () => {
  const current = useTestApp();
  const { newSpace, newChangeRequest, edit } = changeRequestSetup(current);
  const content = (space: string, cr: string) =>
    `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`;
  const markdownOf = async (space: string, cr: string, page: string) => {
    const read = await current().http(
      'GET',
      `/v1/spaces/${space}/change-requests/${cr}/content/page/${page}?format=markdown`,
    );
    expect(read.status).toBe(200);
    return read.body as { markdown: string; slug?: string; description?: string; hidden?: boolean };
  };

  it('stores 40 pages of 30 KB of Markdown sent in one request, and reads each back', async () => {
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const pages = PAGES;
    const written = await edit(
      space.id,
      cr.id,
      pages.map((markdown, n) => insertPage(`Topic ${n}`, markdown)),
    );
    expect(written.changes).toHaveLength(40);
    for (const n of [0, 17, 39]) {
      const read = await markdownOf(space.id, cr.id, written.changes[n].page.id);
      expect(read.markdown).toBe(pages[n]);
    }
    // Converting 1.2 MB of dense Markdown takes most of it, on two threads.
  }, 180_000);

  it('stores a page of 1 MiB of Markdown that does not compress, and reads it back identical', async () => {
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const markdown = LARGE;
    expect(Buffer.byteLength(markdown)).toBeGreaterThan(1000 * 1024);
    expect(Buffer.byteLength(markdown)).toBeLessThanOrEqual(1024 * 1024);
    const written = await edit(space.id, cr.id, [insertPage('Big', markdown)]);
    const read = await markdownOf(space.id, cr.id, written.changes[0].page.id);
    expect(read.markdown === markdown).toBe(true);
    // Merged, the space reads it too.
    const merge = await current().api().spaces.mergeChangeRequest(space.id, cr.id);
    expect(merge.data.result).toBe('merge');
  });

  it('refuses a page over 1 MiB of Markdown with a 413 naming the field, storing nothing', async () => {
    const app = current();
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const head = await app.built.storage.events.headPosition();
    const reply = await app.http('POST', content(space.id, cr.id), {
      body: { changes: [insertPage('Small', 'Fine.\n'), insertPage('Huge', 'x'.repeat(1024 * 1024 + 1))] },
    });
    expect(reply.status).toBe(413);
    expect(messageOf(reply.body)).toMatch(/^changes\[1\]\.document\.markdown: is larger than 1 MiB/);
    expect(await app.built.storage.events.headPosition()).toBe(head);
  });

  it('normalizes slugs as GitBook takes them, from frontmatter or the change', async () => {
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const written = await edit(space.id, cr.id, [
      insertPage('Latest', '---\nslug: /latest/\n---\n\nLatest docs.\n'),
      insertPage('Docs', 'Docs.\n', { slug: 'Latest Docs' }),
      insertPage('Guide', 'Guide.\n', { slug: 'guide/' }),
    ]);
    const slugs = await Promise.all(
      written.changes.map(async ({ page }) => (await markdownOf(space.id, cr.id, page.id)).slug),
    );
    expect(slugs).toEqual(['latest', 'latest-docs', 'guide']);
  });

  it('keeps frontmatter: page fields become fields, other keys are written back as they came', async () => {
    const space = await newSpace();
    const cr = await newChangeRequest(space.id);
    const markdown = [
      '---',
      'title: Configuration',
      'description: How to configure',
      'hidden: true',
      'icon: gear',
      'hide_title: true',
      'toc_max_heading_level: 3',
      'sidebar_custom_props:',
      '  badge: new',
      '  tags: [a, b]',
      '---',
      '',
      'Body of the page.',
      '',
    ].join('\n');
    const written = await edit(space.id, cr.id, [insertPage('Ignored', markdown)]);
    const read = await markdownOf(space.id, cr.id, written.changes[0].page.id);
    expect(read).toMatchObject({ title: 'Configuration', description: 'How to configure', hidden: true });
    expect(read.markdown).toBe(
      [
        '---',
        'hide_title: true',
        'toc_max_heading_level: 3',
        'sidebar_custom_props:',
        '  badge: new',
        '  tags:',
        '    - a',
        '    - b',
        '---',
        '',
        'Body of the page.',
        '',
      ].join('\n'),
    );
    // Written again with the Markdown read, the page keeps the same frontmatter; without any, it has none.
    const page = written.changes[0].page.id;
    await edit(space.id, cr.id, [{ operation: 'update_page', page, document: { markdown: read.markdown } }]);
    expect((await markdownOf(space.id, cr.id, page)).markdown).toBe(read.markdown);
    await edit(space.id, cr.id, [{ operation: 'update_page', page, document: { markdown: 'Plain.\n' } }]);
    expect((await markdownOf(space.id, cr.id, page)).markdown).toBe('Plain.\n');
  });
});
