import type { DocumentConversions } from '@app/documents/document/conversions';
import { DomainError } from '@app/platform/domain/decider';
import type { ConvertedMarkdown } from '../domain/changes';

/**
 * Converts each distinct Markdown of a request off the serving thread (`DocumentConversions`), for the
 * domain to read (`readBody`): a refusal is kept as the reason, which the domain reports with the field
 * of the body it came in, in its turn; anything else (shutting down) fails the request.
 */
export async function convertMarkdown(
  conversions: DocumentConversions,
  markdown: readonly string[],
): Promise<ConvertedMarkdown> {
  const distinct = [...new Set(markdown)];
  const converted = await Promise.all(
    distinct.map(async (text) => {
      try {
        return { json: await conversions.markdownToJson(text) };
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'invalid') return { refused: error.message };
        throw error;
      }
    }),
  );
  return new Map(distinct.map((text, i) => [text, converted[i]]));
}
