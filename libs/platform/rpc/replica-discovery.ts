import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Expands each configured service URL into one URL per address its host name resolves to, so that
 * `http://command:8080` reaches every replica a container platform runs under that name, and
 * replicas that come and go are picked up at the next refresh.
 */
export class ReplicaDiscovery {
  private current: string[];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly urls: string[],
    private readonly refreshMs = 5_000,
  ) {
    this.current = [...urls];
  }

  replicas(): string[] {
    return this.current;
  }

  async start(): Promise<void> {
    if (this.urls.every((u) => isIP(new URL(u).hostname) !== 0 || new URL(u).hostname === 'localhost'))
      return;
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async refresh(): Promise<void> {
    const expanded = await Promise.all(this.urls.map((u) => this.expand(u)));
    const next = [...new Set(expanded.flat())];
    if (next.length > 0) this.current = next;
  }

  private async expand(url: string): Promise<string[]> {
    const parsed = new URL(url);
    if (isIP(parsed.hostname) !== 0 || parsed.hostname === 'localhost') return [url];
    try {
      const addresses = await lookup(parsed.hostname, { all: true, family: 4 });
      return addresses.map(({ address }) => `${parsed.protocol}//${address}:${parsed.port || '80'}`);
    } catch {
      // Name not resolvable right now (all replicas down): keep trying the name itself.
      return [url];
    }
  }
}
