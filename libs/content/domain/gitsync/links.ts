import { folderOf, isMarkdown, joinPath } from './paths';

/**
 * What a relative link of a page's Markdown points to in the repository: a page (a Markdown file or a
 * folder's README.md) or an asset (any other file), with the anchor it carries. Undefined for links
 * that are no file of the repository: URLs with a scheme, from the host's top (`/x`), anchors of the
 * page itself (`#x`), template variables.
 */
export type LinkTarget =
  | { kind: 'page'; file: string; anchor?: string }
  | { kind: 'asset'; file: string }
  | { kind: 'outside'; url: string };

const decode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
};

/**
 * `url` as written in the page `from` (a file relative to the root). `isFolder` says whether a path is
 * a folder of the repository: a link to one is a link to its README.md.
 */
export function linkTarget(
  url: string,
  from: string,
  isFolder: (path: string) => boolean,
): LinkTarget | undefined {
  const raw = url.trim().replace(/^<(.*)>$/, '$1');
  if (raw === '' || raw.startsWith('#') || raw.startsWith('/') || raw.includes('{{')) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return undefined;
  const hash = raw.indexOf('#');
  const path = decode((hash < 0 ? raw : raw.slice(0, hash)).split('?')[0]);
  const anchor = hash < 0 ? undefined : raw.slice(hash + 1) || undefined;
  if (path === undefined) return undefined;
  const file = joinPath(folderOf(from), path);
  if (file === undefined) return { kind: 'outside', url: raw };
  if (isMarkdown(file)) return { kind: 'page', file, ...(anchor ? { anchor } : {}) };
  if (file === '' || path.endsWith('/') || isFolder(file))
    return {
      kind: 'page',
      file: file === '' ? 'README.md' : `${file}/README.md`,
      ...(anchor ? { anchor } : {}),
    };
  return { kind: 'asset', file };
}

/** Link destinations of a Markdown line: `](url)`, `](<url> "title")`, their text when it repeats the URL. */
const INLINE = /(!?\[)((?:[^[\]]|\[[^\]]*\])*)\]\(\s*(<[^>\n]*>|[^()\s]+)((?:\s+(?:"[^"]*"|'[^']*'))?\s*)\)/g;
/** `[label]: url` reference definitions. */
const DEFINITION = /^( {0,3}\[[^\]]+\]:\s*)(<[^>]*>|\S+)/;
/** HTML attributes and GitBook's tag attributes that hold a URL: `src`, `href`, `url`, `data`. */
const ATTRIBUTE = /(\b(?:src|href|url)=)("[^"]*"|'[^']*')/g;

/**
 * The Markdown with each link destination `replace` answers for replaced (the others as written):
 * Markdown links and images, reference definitions, and the URL attributes of HTML and of GitBook's
 * tags (`{% content-ref url="…" %}`, `{% file src="…" %}`, `<img src="…">`); a link's text stays as
 * written (a content-ref's body, `[page.md](page.md)`, is its caption). Fenced code and code spans are left as they are.
 */
export function rewriteLinks(markdown: string, replace: (url: string) => string | undefined): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== undefined) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return line;
      }
      if (marker) {
        fence = marker;
        return line;
      }
      return line
        .split(/(`+[^`]*`+)/)
        .map((part, i) => (i % 2 === 1 ? part : rewriteText(part, replace)))
        .join('');
    })
    .join('\n');
}

function rewriteText(text: string, replace: (url: string) => string | undefined): string {
  const inline = (part: string): string =>
    part.replace(INLINE, (_whole, open: string, label: string, url: string, title: string) => {
      const bare = url.replace(/^<(.*)>$/, '$1');
      const next = replace(bare);
      const inner = inline(label);
      return `${open}${inner}](${next ?? url}${title})`;
    });
  const definition = text.replace(DEFINITION, (whole, head: string, url: string) => {
    const next = replace(url.replace(/^<(.*)>$/, '$1'));
    return next === undefined ? whole : `${head}${next}`;
  });
  return inline(definition).replace(ATTRIBUTE, (whole, name: string, quoted: string) => {
    const next = replace(quoted.slice(1, -1).replace(/^<(.*)>$/, '$1'));
    return next === undefined ? whole : `${name}${quoted[0]}${next}${quoted[0]}`;
  });
}
