/**
 * What a page of real Markdown costs in the log: the bytes of the events that store its objects (their
 * data as JSON, what an append is limited by), against the bytes of the Markdown.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownToDocument } from '@app/documents/document';
import { largeRealPage } from '@app/documents/document/markdown-limits.testing';
import { ContentEditor } from '@app/documents/tree/editor';
import { canonicalJson, type Hash, type JsonValue } from '@app/documents/tree/hash';
import { MemoryObjectStore, serializeObjects } from '@app/documents/tree/objects';
import { MAX_APPEND_BYTES } from '@app/platform/eventstore/event-store.port';
import { OBJECTS_EVENT_BYTES, objectEvents } from './content-objects.decider';

const ROOT = join(__dirname, '..', '..', '..');
/** Real documentation pages: this project's own. */
const REAL_PAGES = ['README.md', 'docs/architecture.md', 'docs/permissions.md', 'docs/adding-a-resource.md'];

async function pageObjects(markdown: string): Promise<Map<Hash, unknown>> {
  const { document } = markdownToDocument(markdown);
  const editor = await ContentEditor.open(new MemoryObjectStore(), null);
  await editor.insertPage({
    id: 'p1',
    type: 'document',
    title: 'Page',
    slug: 'page',
    document: document as unknown as JsonValue,
  });
  return editor.commit().created;
}

const dataBytes = (data: unknown) => Buffer.byteLength(JSON.stringify(data));

/** The bytes of the events that store a page of `markdown`, and of the one event of canonical JSON stored before. */
async function storedBytes(markdown: string) {
  const created = await pageObjects(markdown);
  const events = objectEvents('space1', serializeObjects(created));
  const plain: Record<string, string> = {};
  for (const [hash, value] of created) plain[hash] = canonicalJson(value);
  return {
    events,
    now: events.reduce((sum, event) => sum + dataBytes(event.data), 0),
    before: dataBytes({ spaceId: 'space1', objects: plain }),
  };
}

describe('what a page stores', () => {
  it.each(REAL_PAGES)(
    'a real page (%s) stores less than its Markdown, a fifth of the plain JSON',
    async (path) => {
      const markdown = readFileSync(join(ROOT, path), 'utf8');
      const size = Buffer.byteLength(markdown);
      const { now, before } = await storedBytes(markdown);
      // Canonical JSON, as every event stored it before: 4 to 8 times the Markdown.
      expect(before / size).toBeGreaterThan(3);
      expect(now / size).toBeLessThan(1);
      expect(now / before).toBeLessThan(0.2);
    },
  );

  it('a page of 1 MiB of Markdown is stored in events that each fit in an append', async () => {
    const markdown = largeRealPage(1024 * 1024, 5000);
    const { events, now } = await storedBytes(markdown);
    expect(now / Buffer.byteLength(markdown)).toBeLessThan(1);
    for (const event of events) expect(dataBytes(event.data)).toBeLessThan(MAX_APPEND_BYTES - 4096);
  });

  it('objects of many pages are spread over events under OBJECTS_EVENT_BYTES, in the order given', () => {
    const objects: Record<string, string> = {};
    for (let i = 0; i < 40; i++) objects[`h${i}`] = `~z${'A'.repeat(100_000)}`;
    const events = objectEvents('space1', objects);
    expect(events.length).toBeGreaterThan(4);
    for (const event of events) expect(dataBytes(event.data)).toBeLessThanOrEqual(OBJECTS_EVENT_BYTES + 100);
    expect(events.flatMap((event) => Object.keys(event.data.objects))).toEqual(Object.keys(objects));
  });
});
