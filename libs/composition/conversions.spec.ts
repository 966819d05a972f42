import { DEFAULT_CONVERSIONS } from '@app/platform/config/config';
import { DomainError } from '@app/platform/domain/decider';
import { CONVERSION_DEPTH, PooledConversions } from './conversions';

describe('conversion threads', () => {
  const pool = new PooledConversions({ ...DEFAULT_CONVERSIONS, threads: 1, maxWaiting: 1 });
  afterAll(() => pool.onModuleDestroy());

  it('refuses a conversion with 503 (unavailable) when as many wait as allowed, and converts the others', async () => {
    // Handed over in one turn: the thread takes CONVERSION_DEPTH, one waits, the last finds the queue full.
    const markdowns = Array.from({ length: CONVERSION_DEPTH + 2 }, (_, i) => `# Heading ${i}`);
    const outcomes = await Promise.allSettled(markdowns.map((markdown) => pool.markdownToJson(markdown)));
    const refused = outcomes.pop();
    expect(outcomes.map((o) => o.status)).toEqual(markdowns.slice(1).map(() => 'fulfilled'));
    expect(refused).toMatchObject({ status: 'rejected', reason: expect.any(DomainError) });
    expect((refused as PromiseRejectedResult).reason).toMatchObject({
      kind: 'unavailable',
      message: expect.stringMatching(/retry shortly/),
    });
    // Nothing of the refusal stays: the next conversion runs.
    expect(JSON.parse(await pool.markdownToJson('# Four')).document.nodes[0].type).toBe('heading-1');
  });

  it('writes a document out as Markdown on a thread', async () => {
    const json = await pool.markdownToJson('# Title\n\nSome *text*.');
    expect(await pool.documentToMarkdown(JSON.parse(json).document)).toBe('# Title\n\nSome *text*.\n');
  });

  it('converts Markdown and renders the document made back, in one task, as documentToMarkdown would', async () => {
    const { json, markdown } = await pool.markdownToJsonAndBack('Some  _text_ ,\n* one\n* two');
    const { document } = JSON.parse(json);
    expect(markdown).toBe(await pool.documentToMarkdown(document));
    expect(markdown).toBe('Some  *text* ,\n\n* one\n* two\n');
  });
});
