import { useTestApp } from '../support/app-harness';

// Not in e2e-mongo: the bound is checked on the request, before any view is read.

/** A paragraph in `depth` nested blockquotes, as GitBook's JSON document writes it. */
function quoted(depth: number, text: string): Record<string, unknown> {
  let node: Record<string, unknown> = {
    object: 'block',
    type: 'paragraph',
    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
  };
  for (let i = 0; i < depth; i++) node = { object: 'block', type: 'blockquote', nodes: [node] };
  return { object: 'document', data: {}, nodes: [node] };
}

describe('the nesting a request may hold: documents within their own bound, other JSON within a smaller one', () => {
  const current = useTestApp();

  it('takes a document of 30 nested blockquotes, as JSON and as Markdown', async () => {
    const app = current();
    const space = (await app.api().orgs.createSpace(app.organizationId, { title: 'Quotes' })).data;
    const cr = (await app.api().spaces.createChangeRequest(space.id, { subject: 'Deep' })).data;
    const content = `/v1/spaces/${space.id}/change-requests/${cr.id}/content`;
    const json = await app.http('POST', content, {
      body: {
        changes: [{ operation: 'insert_page', title: 'JSON', document: { document: quoted(30, 'deep') } }],
      },
    });
    expect([json.status, JSON.stringify(json.body).slice(0, 200)]).toEqual([200, expect.any(String)]);
    const markdown = `${'> '.repeat(30)}deep\n`;
    const md = await app.http('POST', content, {
      body: { changes: [{ operation: 'insert_page', title: 'Markdown', document: { markdown } }] },
    });
    expect(md.status).toBe(200);
  });

  it('refuses JSON nested past any document, naming the field, never a 500', async () => {
    const app = current();
    let deep: unknown = {};
    for (let i = 0; i < 400; i++) deep = { a: deep };
    const reply = await app.http('PATCH', `/v1/orgs/${app.organizationId}`, { body: { title: deep } });
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toMatch(/title: nested more than \d+ levels deep/);
  });
});
