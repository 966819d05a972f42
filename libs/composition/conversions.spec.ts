import { DEFAULT_CONVERSIONS } from '@app/platform/config/config';
import { DomainError } from '@app/platform/domain/decider';
import { PooledConversions } from './conversions';

describe('conversion threads', () => {
  const pool = new PooledConversions({ ...DEFAULT_CONVERSIONS, threads: 1, maxWaiting: 1 });
  afterAll(() => pool.onModuleDestroy());

  it('refuses a conversion with 503 (unavailable) when as many wait as allowed, and converts the others', async () => {
    // Handed over in one turn: the first runs, the second waits, the third finds the queue full.
    const conversions = ['# One', '# Two', '# Three'].map((markdown) => pool.markdownToJson(markdown));
    const [one, two, three] = await Promise.allSettled(conversions);
    expect(one.status).toBe('fulfilled');
    expect(two.status).toBe('fulfilled');
    expect(three).toMatchObject({ status: 'rejected', reason: expect.any(DomainError) });
    expect((three as PromiseRejectedResult).reason).toMatchObject({
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
});
