/**
 * GitBook's `Embed` for a URL, as a link card: the URL is never fetched (a server fetching whatever
 * URL a page names would reach what only the server can), so the card shows where the URL leads
 * rather than the title of what it leads to. GitBook's renderer draws it as a card linking to the URL.
 */
export interface LinkEmbed {
  type: 'link';
  /** The host and path, without the scheme, a trailing slash, the query or the fragment. */
  title: string;
  /** The host, without `www.`. */
  site: string;
}

/** The card of an http or https URL; undefined for anything else. */
export function linkEmbed(url: string): LinkEmbed | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const site = parsed.hostname.replace(/^www\./, '');
  const path = safeDecode(parsed.pathname).replace(/\/+$/, '');
  return { type: 'link', title: `${site}${path}`, site };
}

/** A path as a reader writes it (`/café`, not `/caf%C3%A9`), or as it is when it does not decode. */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
