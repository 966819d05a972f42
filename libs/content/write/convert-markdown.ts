import type { DocumentConversions } from '@app/documents/document/conversions';
import { DomainError } from '@app/platform/domain/decider';
import type { ConvertedMarkdown } from '../domain/changes';

/** Conversions of one request handed to the threads at once: a large batch queues behind itself, not others. */
const PER_REQUEST = 4;

/**
 * Converts each distinct Markdown of a request off the serving thread (`DocumentConversions`), for the
 * domain to read (`readBody`), a few at a time: a refusal is kept as the reason, which the domain reports
 * with the field of the body it came in, in its turn; anything else (threads full, shutting down) fails
 * the request.
 */
export async function convertMarkdown(
  conversions: DocumentConversions,
  markdown: readonly string[],
  { andBack = false } = {},
): Promise<ConvertedMarkdown> {
  const distinct = [...new Set(markdown)];
  const converted = new Map<string, { json: string; markdown?: string } | { refused: string }>();
  let next = 0;
  const convertNext = async (): Promise<void> => {
    for (let i = next++; i < distinct.length; i = next++) {
      const text = distinct[i];
      try {
        converted.set(
          text,
          andBack
            ? await conversions.markdownToJsonAndBack(text)
            : { json: await conversions.markdownToJson(text) },
        );
      } catch (error) {
        if (!(error instanceof DomainError && error.kind === 'invalid')) throw error;
        converted.set(text, { refused: error.message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PER_REQUEST, distinct.length) }, convertNext));
  return converted;
}
