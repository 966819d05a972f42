import Fastify, { type FastifyInstance } from 'fastify';
import { batchResponseWrites } from './batched-writes';

/**
 * Each handler queues an immediate before answering; a later onSend hook marks when the answer goes on
 * to be written. Unbatched, that is within the turn (before the immediate); batched, after it.
 */
function appWithMarks(): { app: FastifyInstance; marks: string[] } {
  const marks: string[] = [];
  const app = Fastify();
  batchResponseWrites(app, (error) => {
    throw error;
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    marks.push(`written ${request.method}`);
    done(null, payload);
  });
  const handler = async (request: { method: string }) => {
    setImmediate(() => marks.push(`turn over ${request.method}`));
    return { method: request.method };
  };
  app.get('/thing', handler);
  app.patch('/thing', handler);
  return { app, marks };
}

describe('batchResponseWrites', () => {
  it('holds answers to reads until the end of the turn, then writes them all', async () => {
    const { app, marks } = appWithMarks();
    const answers = await Promise.all([
      app.inject({ method: 'GET', url: '/thing' }),
      app.inject({ method: 'GET', url: '/thing' }),
      app.inject({ method: 'HEAD', url: '/thing' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers[0].json()).toEqual({ method: 'GET' });
    // Every answer was held past the end of the turn in which it was ready.
    const written = marks.map((mark, i) => [mark, i] as const).filter(([mark]) => mark.startsWith('written'));
    const firstTurnOver = marks.findIndex((mark) => mark.startsWith('turn over'));
    expect(written).toHaveLength(3);
    expect(firstTurnOver).toBeGreaterThanOrEqual(0);
    for (const [, at] of written) expect(at).toBeGreaterThan(firstTurnOver);
    await app.close();
  });

  it('writes answers to writes at once', async () => {
    const { app, marks } = appWithMarks();
    const answer = await app.inject({ method: 'PATCH', url: '/thing', payload: {} });
    expect(answer.json()).toEqual({ method: 'PATCH' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(marks).toEqual(['written PATCH', 'turn over PATCH']);
    await app.close();
  });

  it('abandons an answer whose write throws, and still writes the others', async () => {
    type Hook = (request: unknown, reply: unknown, payload: unknown, done: () => void) => void;
    let hook: Hook | undefined;
    const errors: unknown[] = [];
    batchResponseWrites({ addHook: ((_name: string, fn: Hook) => (hook = fn)) as never }, (error) =>
      errors.push(error),
    );
    const reply = () => ({ raw: { writableEnded: false, destroy: jest.fn() } });
    const [broken, fine] = [reply(), reply()];
    const written: string[] = [];
    hook?.({ method: 'GET' }, broken, 'a', () => {
      throw new Error('boom');
    });
    hook?.({ method: 'GET' }, fine, 'b', () => written.push('b'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual(['b']);
    expect(errors).toEqual([new Error('boom')]);
    expect(broken.raw.destroy).toHaveBeenCalled();
    expect(fine.raw.destroy).not.toHaveBeenCalled();
  });
});
