import type { Document } from '@app/documents/document';
import { nodePreview, PREVIEW_MAX } from './comment-target';

const paragraph = (key: string, text: string) => ({
  object: 'block',
  type: 'paragraph',
  key,
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text }] }],
});
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes }) as unknown as Document;

describe('comment target', () => {
  it('previews the text of the block with the key, nested ones too, and nothing for a key the body lacks', () => {
    const body = doc(paragraph('a', 'First'), {
      object: 'block',
      type: 'blockquote',
      key: 'q',
      nodes: [paragraph('b', 'Quoted  text')],
    });
    expect(nodePreview(body, 'a')).toBe('First');
    expect(nodePreview(body, 'b')).toBe('Quoted text');
    expect(nodePreview(body, 'q')).toBe('Quoted text');
    expect(nodePreview(body, 'z')).toBeUndefined();
  });

  it('keeps at most PREVIEW_MAX characters', () => {
    const preview = nodePreview(doc(paragraph('a', 'x'.repeat(1000))), 'a');
    expect(preview).toHaveLength(PREVIEW_MAX);
    expect(preview?.endsWith('…')).toBe(true);
  });
});
