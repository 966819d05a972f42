import type { Config } from '../config/config';
import { PositionWaits, ProjectionTimeoutError } from './position-waits';
import type { LiveProjector } from './projector';
import { ReadYourWrites } from './read-your-writes';

/** A projector stand-in whose views are at `at`, moved by the test. */
function views(at = 0) {
  let position = at;
  const waits = new PositionWaits(() => position);
  const projector = {
    waitFor: (target: number, timeoutMs = 5000) => waits.wait(target, timeoutMs),
  } as Partial<LiveProjector> as LiveProjector;
  return {
    projector,
    reach(next: number) {
      position = next;
      waits.notify();
    },
  };
}

const bounded = (ms: number) => ({ viewsWaitMs: ms }) as Config;

describe('read-your-writes', () => {
  it('answers a write from the views once they include it', async () => {
    const { projector, reach } = views(3);
    const answer = new ReadYourWrites(projector, bounded(5000)).after({ position: 5 }, async () => 'read');
    setTimeout(() => reach(5), 20);
    await expect(answer).resolves.toBe('read');
  });

  it('answers a write that holds nothing of the views as done when they stay behind past the bound', async () => {
    const { projector } = views(3);
    const started = Date.now();
    await expect(new ReadYourWrites(projector, bounded(100)).wait({ position: 9 })).resolves.toEqual({
      position: 9,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('refuses only the answer read from views that stay behind (it says the write was stored)', async () => {
    const { projector } = views(3);
    const read = jest.fn(async () => 'read');
    await expect(
      new ReadYourWrites(projector, bounded(100)).after({ position: 9 }, read),
    ).rejects.toBeInstanceOf(ProjectionTimeoutError);
    expect(read).not.toHaveBeenCalled();
  });

  it('lets a failed write fail as it did', async () => {
    const { projector } = views(3);
    const failure = new Error('refused');
    await expect(new ReadYourWrites(projector, bounded(100)).wait(Promise.reject(failure))).rejects.toBe(
      failure,
    );
  });
});
