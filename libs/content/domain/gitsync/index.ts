/** GitBook Git Sync repositories read as pages to create: the pure part of `import:gitsync`. */
export { type GitSyncConfig, GitSyncConfigError, parseGitbookYaml } from './gitbook-yaml';
export { constructsLeftAsText } from './left-as-text';
export { type LinkTarget, linkTarget, rewriteLinks } from './links';
export { cleanPath, folderOf, isMarkdown, joinPath } from './paths';
export {
  isExternal,
  parseSummary,
  type Summary,
  type SummaryEntry,
  type SummaryGroup,
  type SummaryPage,
} from './summary';
export { buildTree, type PageTree, type PlannedPage, slugFromFile } from './tree';
