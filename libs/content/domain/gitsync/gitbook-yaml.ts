import { parse } from 'yaml';
import { cleanPath } from './paths';

/** What `.gitbook.yaml` says, with GitBook's defaults; paths relative to the repository. */
export interface GitSyncConfig {
  /** The folder the documentation is in ('' for the repository's top). */
  root: string;
  /** The first page and the table of contents, relative to `root`. */
  readme: string;
  summary: string;
  /** Old path (relative to `root`, no extension) → the Markdown file it goes to. */
  redirects: Record<string, string>;
}

export class GitSyncConfigError extends Error {}

const stringAt = (value: unknown, field: string, fallback: string): string => {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || value.trim() === '')
    throw new GitSyncConfigError(`.gitbook.yaml: ${field} must be a path`);
  return value;
};

const path = (value: string, field: string): string => {
  const clean = cleanPath(value.trim());
  if (clean === undefined) throw new GitSyncConfigError(`.gitbook.yaml: ${field} leaves the repository`);
  return clean;
};

/**
 * `.gitbook.yaml` read as GitBook does (`root`, `structure.readme`, `structure.summary`, `redirects`),
 * its paths normalized; `undefined` (no file) gives the defaults: `./`, `README.md`, `SUMMARY.md`.
 */
export function parseGitbookYaml(text: string | undefined): GitSyncConfig {
  let raw: unknown;
  try {
    raw = text === undefined ? {} : (parse(text) ?? {});
  } catch (error) {
    throw new GitSyncConfigError(`.gitbook.yaml: not YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new GitSyncConfigError('.gitbook.yaml: must be a mapping');
  const config = raw as Record<string, unknown>;
  const structure = config.structure ?? {};
  if (typeof structure !== 'object' || structure === null || Array.isArray(structure))
    throw new GitSyncConfigError('.gitbook.yaml: structure must be a mapping');
  const { readme, summary } = structure as Record<string, unknown>;
  const redirects: Record<string, string> = {};
  const given = config.redirects ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw new GitSyncConfigError('.gitbook.yaml: redirects must be a mapping');
  for (const [from, to] of Object.entries(given)) {
    if (typeof to !== 'string')
      throw new GitSyncConfigError(`.gitbook.yaml: redirects.${from} must be a path`);
    redirects[from] = to;
  }
  return {
    root: path(stringAt(config.root, 'root', './'), 'root'),
    readme: path(stringAt(readme, 'structure.readme', 'README.md'), 'structure.readme'),
    summary: path(stringAt(summary, 'structure.summary', 'SUMMARY.md'), 'structure.summary'),
    redirects,
  };
}
