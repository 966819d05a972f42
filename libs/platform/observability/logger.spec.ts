import { createLogger } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => lines.push(JSON.parse(line)) },
  });
  return { logger, lines };
}

describe('createLogger', () => {
  it('stamps each line with the ISO time it was written', async () => {
    const { logger, lines } = capture();
    const before = Date.now();
    logger.info('first');
    await new Promise((resolve) => setTimeout(resolve, 5));
    logger.info('second');
    const after = Date.now();
    const times = lines.map((line) => line.time as string);
    for (const time of times) {
      expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(time)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(time)).toBeLessThanOrEqual(after);
    }
    // A later millisecond gets a new stamp, not the one formatted before.
    expect(Date.parse(times[1])).toBeGreaterThan(Date.parse(times[0]));
  });
});
