import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentChangeInput } from '@app/content/domain/changes';
import { contentTypeOf, MAX_FILE_BYTES } from '@app/content/domain/changes/files';
import {
  buildTree,
  constructsLeftAsText,
  type GitSyncConfig,
  isMarkdown,
  linkTarget,
  type PageTree,
  type PlannedPage,
  parseGitbookYaml,
  parseSummary,
  rewriteLinks,
} from '@app/content/domain/gitsync';
import { markdownToDocument } from '@app/documents/document';

/** GitBook's limit of changes in one `updateChangeRequestContent` request. */
export const MAX_BATCH_CHANGES = 50;
/** Half the server's default request body limit (8 MiB): room for what a request carries beside. */
export const MAX_BATCH_BYTES = 4 * 1024 * 1024;
const FILES_PER_CHANGE = 20;
/** Refs of the pages a batch inserts: no page's path can hold a `:`, so none collides with one. */
const refOf = (page: PlannedPage) => `git-sync:${page.key}`;

/** What a batch of content changes made: ids of the pages inserted by ref, of the files inserted in order. */
export interface BatchResult {
  pages: ReadonlyMap<string, string>;
  files: readonly string[];
}

/** Where the changes go: the change request's content, one batch at a time (the API's or the service's). */
export type ApplyBatch = (changes: ContentChangeInput[]) => Promise<BatchResult>;

/** A Git Sync repository read from disk: its configuration, pages and the files it holds. */
export interface Repository {
  config: GitSyncConfig;
  tree: PageTree;
  /** Markdown of the pages, by file relative to the documentation's root. */
  markdown: ReadonlyMap<string, string>;
  /** Every file below the root (but `.git`), relative to it. */
  files: ReadonlySet<string>;
  folders: ReadonlySet<string>;
  /** What could not be converted, one line each (`file: what`). */
  problems: string[];
  /** Reads a file's bytes. */
  bytes(file: string): Promise<Buffer>;
}

export interface ImportResult {
  pages: number;
  files: number;
  batches: number;
  problems: string[];
}

async function walk(dir: string, prefix = ''): Promise<{ files: string[]; folders: string[] }> {
  const files: string[] = [];
  const folders: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === '.git' || entry.name === 'node_modules') continue;
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      folders.push(path);
      const below = await walk(join(dir, entry.name), path);
      files.push(...below.files);
      folders.push(...below.folders);
    } else if (entry.isFile()) files.push(path);
  }
  return { files, folders };
}

/** The frontmatter's slug of a page's Markdown, when it gives one that is a string. */
function frontmatterSlug(markdown: string): string | undefined {
  try {
    const slug = markdownToDocument(markdown).frontmatter?.slug;
    return typeof slug === 'string' ? slug : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the repository at `dir` as GitBook's Git Sync does (see libs/content/domain/gitsync). */
export async function readRepository(dir: string): Promise<Repository> {
  const top = await stat(dir).catch(() => undefined);
  if (!top?.isDirectory()) throw new Error(`${dir}: no such folder`);
  const yaml = await readFile(join(dir, '.gitbook.yaml'), 'utf8').catch(() => undefined);
  const config = parseGitbookYaml(yaml);
  const rootDir = join(dir, config.root);
  const walked = await walk(rootDir).catch(() => {
    throw new Error(`${config.root}: the root .gitbook.yaml names is no folder of ${dir}`);
  });
  const files = new Set(walked.files);
  const folders = new Set(walked.folders);
  const problems: string[] = [];
  if (!files.has(config.summary))
    throw new Error(
      `${config.summary}: not found in ${rootDir} (a Git Sync repository has a table of contents)`,
    );
  const summary = parseSummary(await readFile(join(rootDir, config.summary), 'utf8'), config.summary);
  for (const text of summary.skipped)
    problems.push(
      `${config.summary}: the entry "${text}" links to no Markdown file of the repository (not imported)`,
    );

  const markdown = new Map<string, string>();
  const read = async (file: string) => {
    if (!markdown.has(file) && files.has(file))
      markdown.set(file, await readFile(join(rootDir, file), 'utf8'));
    return markdown.get(file);
  };
  const listed: string[] = [];
  const collect = (pages: readonly { file: string; children: readonly { file: string }[] }[]) => {
    for (const page of pages) {
      listed.push(page.file);
      collect(page.children as typeof pages);
    }
  };
  collect(summary.entries.flatMap((e) => (e.kind === 'group' ? e.children : [e])));
  for (const file of listed) await read(file);
  const readme = await read(config.readme);
  const tree = buildTree(summary.entries, {
    readme: config.readme,
    readmeTitle:
      readme === undefined ? undefined : (/^#\s+(.+?)\s*#*\s*$/m.exec(readme)?.[1] ?? 'Introduction'),
    slugOf: (file) => {
      const text = markdown.get(file);
      return text === undefined ? undefined : frontmatterSlug(text);
    },
  });
  for (const file of tree.repeated)
    problems.push(
      isMarkdown(file)
        ? `${config.summary}: names ${file} a second time (one page per file: imported once)`
        : `${config.summary}: names ${file}, which is no Markdown page (not imported)`,
    );
  for (const page of tree.pages)
    if (page.file !== undefined && !files.has(page.file))
      problems.push(
        `${config.summary}: names ${page.file}, which is not in the repository (imported as an empty page)`,
      );
  for (const [from, to] of Object.entries(config.redirects))
    problems.push(
      `.gitbook.yaml: the redirect ${from} → ${to} is not imported (spaces here have no redirects)`,
    );
  return {
    config,
    tree,
    markdown,
    files,
    folders,
    problems,
    bytes: (file) => readFile(join(rootDir, file)),
  };
}

/** Changes cut into batches of at most `MAX_BATCH_CHANGES` changes and `MAX_BATCH_BYTES` of JSON. */
export function batches(changes: ContentChangeInput[], maxBytes = MAX_BATCH_BYTES): ContentChangeInput[][] {
  const out: ContentChangeInput[][] = [];
  let current: ContentChangeInput[] = [];
  let bytes = 0;
  for (const change of changes) {
    const size = Buffer.byteLength(JSON.stringify(change));
    if (current.length > 0 && (current.length >= MAX_BATCH_CHANGES || bytes + size > maxBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(change);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Imports the repository into a change request through `apply`, batch after batch: its files (assets),
 * then its pages level by level without bodies (a parent before its children, so each knows its
 * parent's id), then each page's Markdown with its links to pages and files rewritten to their ids
 * (`/pages/<id>`, `/files/<id>`), which the content resolves as it stores them. `progress` is told the
 * changes done and in all. Answers what it did and what could not be converted.
 */
export async function importRepository(
  repo: Repository,
  apply: ApplyBatch,
  progress: (done: number, total: number) => void = () => {},
): Promise<ImportResult> {
  const problems = [...repo.problems];
  const isFolder = (path: string) => repo.folders.has(path);
  const pageFiles = new Set(repo.tree.pages.flatMap((p) => (p.file ? [p.file] : [])));

  // The assets: every file of .gitbook/assets, and any other file a page links to.
  const assets = new Set([...repo.files].filter((f) => f.startsWith('.gitbook/assets/')));
  for (const [file, text] of repo.markdown) {
    if (!pageFiles.has(file)) continue;
    rewriteLinks(text, (url) => {
      const target = linkTarget(url, file, isFolder);
      if (target?.kind === 'asset' && repo.files.has(target.file)) assets.add(target.file);
      return undefined;
    });
  }
  const uploads: { file: string; change: Record<string, string> }[] = [];
  for (const file of [...assets].sort()) {
    const bytes = await repo.bytes(file);
    if (bytes.length > MAX_FILE_BYTES) {
      problems.push(`${file}: larger than 1 MiB, the most a file may be (not imported)`);
      continue;
    }
    const name = file.slice(file.lastIndexOf('/') + 1);
    uploads.push({
      file,
      change: { name, contentType: contentTypeOf(name), base64: bytes.toString('base64') },
    });
  }
  const fileChanges: { files: string[]; change: ContentChangeInput }[] = [];
  for (let i = 0; i < uploads.length; i += FILES_PER_CHANGE) {
    const group = uploads.slice(i, i + FILES_PER_CHANGE);
    fileChanges.push({
      files: group.map((u) => u.file),
      change: { operation: 'insert_files', files: group.map((u) => u.change) } as ContentChangeInput,
    });
  }

  const documents = repo.tree.pages.filter((p) => p.file !== undefined && repo.markdown.get(p.file)?.trim());
  const total = fileChanges.length + repo.tree.pages.length + documents.length;
  let done = 0;
  let sent = 0;
  progress(done, total);
  const send = async (changes: ContentChangeInput[]) => {
    const result = await apply(changes);
    sent++;
    done += changes.length;
    progress(done, total);
    return result;
  };

  // Files first: pages link to them by id.
  const fileIds = new Map<string, string>();
  const filesOf = new Map(fileChanges.map((f) => [f.change, f.files]));
  for (const batch of batches(fileChanges.map((f) => f.change))) {
    const { files } = await send(batch);
    const paths = batch.flatMap((change) => filesOf.get(change) ?? []);
    for (const [i, path] of paths.entries()) fileIds.set(path, files[i]);
  }

  // The tree, a level at a time.
  const pageIds = new Map<string, string>();
  const depth = Math.max(-1, ...repo.tree.pages.map((p) => p.depth));
  for (let level = 0; level <= depth; level++) {
    const inserts = repo.tree.pages
      .filter((p) => p.depth === level)
      .map(
        (page) =>
          ({
            operation: 'insert_page',
            ...(page.type === 'group' ? { type: 'group' } : {}),
            title: page.title,
            slug: page.slug,
            ...(page.parent ? { into: pageIds.get(page.parent) } : {}),
            ref: refOf(page),
            document: {},
          }) as ContentChangeInput,
      );
    for (const batch of batches(inserts)) {
      const { pages } = await send(batch);
      for (const page of repo.tree.pages.filter((p) => p.depth === level)) {
        const id = pages.get(refOf(page));
        if (id !== undefined) pageIds.set(page.key, id);
      }
    }
  }

  // The bodies, their links to pages and files by id.
  const idOfFile = (file: string) => {
    const key = repo.tree.byFile.get(file);
    return key === undefined ? undefined : pageIds.get(key);
  };
  const updates: ContentChangeInput[] = [];
  for (const page of documents) {
    const file = page.file as string;
    const found = new Set<string>();
    const report = (line: string) => {
      if (!found.has(line)) problems.push(line);
      found.add(line);
    };
    const markdown = rewriteLinks(repo.markdown.get(file) as string, (url) => {
      const target = linkTarget(url, file, isFolder);
      if (target === undefined) return undefined;
      if (target.kind === 'outside') {
        report(`${file}: links to ${url}, outside the repository (left as a URL)`);
        return undefined;
      }
      if (target.kind === 'page') {
        const id = idOfFile(target.file);
        if (id === undefined) {
          report(`${file}: links to ${url}, a page outside SUMMARY.md's tree (left as a URL)`);
          return undefined;
        }
        return `/pages/${id}${target.anchor ? `#${target.anchor}` : ''}`;
      }
      const id = fileIds.get(target.file);
      if (id === undefined && !repo.files.has(target.file))
        report(`${file}: links to ${url}, an asset missing from the repository (left as a URL)`);
      return id === undefined ? undefined : `/files/${id}`;
    });
    try {
      for (const construct of constructsLeftAsText(markdownToDocument(markdown).document))
        report(`${file}: ${construct} left as text`);
    } catch (error) {
      // The content would refuse it, and the batch with it.
      report(`${file}: ${(error as Error).message} (imported as an empty page)`);
      continue;
    }
    updates.push({
      operation: 'update_page',
      page: pageIds.get(page.key),
      document: { markdown },
    } as ContentChangeInput);
  }
  for (const batch of batches(updates)) await send(batch);
  return { pages: pageIds.size, files: fileIds.size, batches: sent, problems };
}
