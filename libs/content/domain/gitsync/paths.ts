/** Paths of a Git Sync repository: `/`-separated, relative to its root, without `.` or `..` segments. */

/** The folder of `path` ('' at the root). */
export const folderOf = (path: string): string => path.slice(0, Math.max(path.lastIndexOf('/'), 0));

/** `relative` resolved against `folder`; undefined when it climbs above the root. */
export function joinPath(folder: string, relative: string): string | undefined {
  const out = folder === '' ? [] : folder.split('/');
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.pop() === undefined) return undefined;
    } else out.push(segment);
  }
  return out.join('/');
}

/** A path as a configuration gives it (`./docs/`, `docs`): normalized, '' for the root itself. */
export const cleanPath = (path: string): string | undefined => joinPath('', path);

/** Whether a link target names a Markdown page rather than an asset. */
export const isMarkdown = (path: string): boolean => /\.md$/i.test(path);
