import { connect } from 'node:net';
import { useTestApp } from '../support/app-harness';

// Not in e2e-mongo: what is checked happens in the HTTP server, before any view is read.

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
  /** Milliseconds from the first byte sent to the connection's end. */
  ms: number;
}

/** Sends `chunks` over a raw connection (each after `gapMs`), and reads the answer until the server closes. */
function raw(url: string, chunks: string[], gapMs = 0): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (data) => {
      received += data;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body = ''] = received.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body, ms: Date.now() - started });
    });
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

const envelope = (status: number) => ({ error: { code: status, message: expect.any(String) } });

describe('HTTP limits: bodies other than JSON, refused requests in the envelope, stalled requests', () => {
  const current = useTestApp({ config: { requestTimeoutMs: 1500 } });

  it('answers a form, text or untyped body on a JSON route with a 415 in the envelope, and writes nothing', async () => {
    const app = current();
    const before = (await app.api().orgs.listSpacesInOrganizationById(app.organizationId)).data.count ?? 0;
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', 'title=Sneaky'],
      ['text/plain', '{"title":"Sneaky"}'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nSneaky\r\n--x--',
      ],
    ]) {
      const reply = await fetch(`${app.url}/v1/orgs/${app.organizationId}/spaces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.token}`, 'content-type': type },
        body,
      });
      expect({ type, status: reply.status }).toEqual({ type, status: 415 });
      expect(await reply.json()).toEqual({
        error: { code: 415, message: expect.stringMatching(/^content-type: /) },
      });
    }
    // JSON with a charset, or a +json type, is JSON.
    const json = await fetch(`${app.url}/v1/orgs/${app.organizationId}/spaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ title: 'Plain JSON' }),
    });
    expect(json.status).toBe(201);
    expect((await app.api().orgs.listSpacesInOrganizationById(app.organizationId)).data.count).toBe(
      before + 1,
    );
  });

  it('refuses text that is not text: invalid UTF-8, a lone surrogate, a bidirectional override in a title', async () => {
    const app = current();
    const before = (await app.api().orgs.listSpacesInOrganizationById(app.organizationId)).data.count ?? 0;
    const post = (body: string | Buffer) =>
      fetch(`${app.url}/v1/orgs/${app.organizationId}/spaces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
        body,
      });
    const refusals: [string | Buffer, RegExp][] = [
      // 0xC3 0x28: a two-byte sequence whose second byte is no continuation; 0xED 0xA0 0x80: an encoded surrogate.
      [
        Buffer.concat([Buffer.from('{"title":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
        /^body: is not valid UTF-8$/,
      ],
      [
        Buffer.concat([Buffer.from('{"title":"x'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
        /^body: is not valid UTF-8$/,
      ],
      ['{"title":"half \\ud83d of an emoji"}', /^title: holds a lone UTF-16 surrogate/],
      [JSON.stringify({ title: 'Invoice\u202efdp.exe' }), /^title must not contain control characters/],
    ];
    for (const [body, message] of refusals) {
      const reply = await post(body);
      expect(reply.status).toBe(400);
      expect(await reply.json()).toEqual({ error: { code: 400, message: expect.stringMatching(message) } });
    }
    const whole = await post(JSON.stringify({ title: 'Café 😀 שלום' }));
    expect(whole.status).toBe(201);
    expect(((await whole.json()) as { title: string }).title).toBe('Café 😀 שלום');
    expect((await app.api().orgs.listSpacesInOrganizationById(app.organizationId)).data.count).toBe(
      before + 1,
    );
  });

  it('answers a malformed request and oversized headers in the envelope (400, 431)', async () => {
    const app = current();
    const malformed = await raw(app.url, ['GET /v1/orgs HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n']);
    expect(malformed.status).toBe(400);
    expect(malformed.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(malformed.body)).toEqual(envelope(400));

    const huge = await raw(app.url, [
      `GET /v1/orgs HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(32 * 1024)}\r\n\r\n`,
    ]);
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body)).toEqual(envelope(431));
  });

  it('closes a request whose body stalls, with a 408, once REQUEST_TIMEOUT_MS passed', async () => {
    const app = current();
    const stalled = await raw(app.url, [
      `POST /v1/orgs/${app.organizationId}/spaces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"tit`,
    ]);
    expect(stalled.status).toBe(408);
    expect(JSON.parse(stalled.body)).toEqual(envelope(408));
    // The timeout is 1.5 s; the server's check runs every few seconds at most.
    expect(stalled.ms).toBeLessThan(15_000);
  });
});

describe('rate limits behind a trusted proxy (TRUST_PROXY)', () => {
  const behindProxy = useTestApp({ config: { rateLimitMax: 2, trustProxy: ['127.0.0.1'] } });
  const direct = useTestApp({ config: { rateLimitMax: 2 } });
  const from = (url: string, address: string) =>
    fetch(`${url}/v1/orgs`, { headers: { 'x-forwarded-for': address } }).then((reply) => reply.status);

  it('counts each caller the trusted proxy names on its own, and never trusts the header otherwise', async () => {
    const proxied = behindProxy().url;
    expect([await from(proxied, '203.0.113.1'), await from(proxied, '203.0.113.1')]).toEqual([401, 401]);
    expect([await from(proxied, '203.0.113.2'), await from(proxied, '203.0.113.2')]).toEqual([401, 401]);
    expect(await from(proxied, '203.0.113.1')).toBe(429);

    const open = direct().url;
    expect([await from(open, '203.0.113.1'), await from(open, '203.0.113.2')]).toEqual([401, 401]);
    expect(await from(open, '203.0.113.3')).toBe(429);
  });
});
