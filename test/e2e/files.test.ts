import { createHash, randomBytes } from 'node:crypto';
import type { Space } from '@gitbook/api';
import { useTestApp } from '../support/app-harness';

type RevisionFile = { id: string; name: string; contentType: string; downloadURL: string; size: number };

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('files uploaded as base64', () => {
  // A 1 MiB file is 1.4 MB of base64: the body limit is set so, whatever the default.
  const current = useTestApp({ config: { bodyLimitBytes: 4 * 1024 * 1024 } });
  let space: Space;
  let changeRequest: string;
  /** Stays open: the tests of refused uploads write to it. */
  let open: string;

  beforeAll(async () => {
    const app = current();
    space = (await app.api().orgs.createSpace(app.organizationId, { title: 'Uploads' })).data as Space;
    changeRequest = (await app.api().spaces.createChangeRequest(space.id, { subject: 'Files' })).data.id;
    open = (await app.api().spaces.createChangeRequest(space.id, { subject: 'Refused' })).data.id;
  });

  const upload = (files: Record<string, unknown>[], cr = changeRequest) =>
    current().http('POST', `/v1/spaces/${space.id}/change-requests/${cr}/content?compat=false`, {
      body: { changes: [{ operation: 'insert_files', files }] },
    });

  /** Follows a download URL as anyone would: no token. */
  const download = async (url: string) => {
    const { pathname } = new URL(url);
    const response = await fetch(`${current().url}${pathname}`);
    return {
      status: response.status,
      headers: response.headers,
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  };

  it('stores the bytes, which the download URL serves without a token, in the change request and after the merge', async () => {
    const app = current();
    // Every byte value, and more than one GridFS chunk where the blobs are on MongoDB.
    const image = randomBytes(300 * 1024);
    const reply = await upload([
      { name: 'diagram.png', contentType: 'image/png', base64: image.toString('base64'), ref: 'diagram' },
      {
        name: 'notes.txt',
        contentType: 'text/plain; charset=utf-8',
        base64: Buffer.from('Hi\n').toString('base64'),
      },
    ]);
    expect(reply.status).toBe(200);
    const inserted = (reply.body as { insertedFiles: RevisionFile[] }).insertedFiles;
    expect(inserted[0]).toEqual({
      id: expect.any(String),
      name: 'diagram.png',
      contentType: 'image/png',
      downloadURL: `http://docs.test/v1/downloads/files/${sha256(image)}`,
      size: image.length,
    });

    const inChangeRequest = await app.http(
      'GET',
      `/v1/spaces/${space.id}/change-requests/${changeRequest}/content/files/${inserted[0].id}`,
    );
    expect(inChangeRequest.body).toEqual(inserted[0]);
    expect((await app.api().spaces.mergeChangeRequest(space.id, changeRequest)).data.result).toBe('merge');
    const merged = await app.http('GET', `/v1/spaces/${space.id}/content/files/${inserted[1].id}`);
    expect(merged.body).toEqual(inserted[1]);

    const image1 = await download(inserted[0].downloadURL);
    expect(image1.status).toBe(200);
    expect(Buffer.compare(image1.bytes, image)).toBe(0);
    expect(image1.headers.get('content-type')).toBe('image/png');
    // What was uploaded never runs as this origin's page.
    expect(image1.headers.get('content-security-policy')).toBe('sandbox');
    expect(image1.headers.get('x-content-type-options')).toBe('nosniff');
    const notes = await download((merged.body as RevisionFile).downloadURL);
    expect(notes.bytes.toString()).toBe('Hi\n');
    expect(notes.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('refuses a file of more than 1 MiB with a 400 naming it, storing nothing', async () => {
    const app = current();
    const head = await app.built.storage.events.headPosition();
    const big = Buffer.alloc(1024 * 1024 + 1, 1);
    const reply = await upload(
      [
        { name: 'small.txt', contentType: 'text/plain', base64: Buffer.from('ok').toString('base64') },
        { name: 'big.bin', contentType: 'application/octet-stream', base64: big.toString('base64') },
      ],
      open,
    );
    expect(reply.status).toBe(400);
    expect((reply.body as { error: { message: string } }).error.message).toBe(
      'changes[0].files[1].base64: decodes to more than 1 MiB',
    );
    expect(await app.built.storage.events.headPosition()).toBe(head);
    expect(await app.built.storage.blobs.has(sha256(big))).toBe(false);
  });

  it('refuses a content type no download could be served with', async () => {
    const reply = await upload([{ name: 'x.bin', contentType: 'not a type', base64: 'AAAA' }], open);
    expect(reply.status).toBe(400);
    expect((reply.body as { error: { message: string } }).error.message).toBe(
      'changes[0].files[0].contentType: must be a MIME type, as type/subtype',
    );
  });

  it('answers 404 for a key of nothing, well-formed or not', async () => {
    const base = `${current().url}/v1/downloads/files`;
    for (const key of [sha256(Buffer.from('never uploaded')), 'not-a-key', 'A'.repeat(64)]) {
      const response = await fetch(`${base}/${key}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: 404, message: 'File not found' } });
    }
  });
});
