import { invalid } from '@app/platform/domain/decider';
import type { Batch } from './batch';
import { isRecord, optionalString, requireString } from './check';
import type { InsertedFile, InsertFilesInput } from './types';

/**
 * Where an uploaded file is downloaded, below /v1: its blob's key. The key (SHA-256 of the bytes) is
 * the capability, as GitBook's download URLs carry theirs: unguessable for any file worth keeping, no
 * token asked, and it never changes, so content may keep it. Who can hash a guessed content (a file of a
 * few known bytes) can confirm it is stored, nothing more.
 */
export const fileDownloadPath = (key: string) => `/downloads/files/${key}`;

/** GitBook's limits for an uploaded file. */
export const MAX_FILE_BYTES = 1024 * 1024;
const MAX_NAME_LENGTH = 256;
const MAX_URL_LENGTH = 2048;
/** `type/subtype` and parameters, in printable ASCII. */
const MIME_TYPE = /^[A-Za-z0-9][\w.+-]*\/[A-Za-z0-9][\w.+-]*( *;[\x20-\x7e]*)?$/;

/** A content type for a file given none, by its extension: the common kinds of a documentation site. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  zip: 'application/zip',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
};

export const contentTypeOf = (name: string): string =>
  CONTENT_TYPES[/\.([^./]+)$/.exec(name)?.[1].toLowerCase() ?? ''] ?? 'application/octet-stream';

export async function insertFiles(batch: Batch, change: InsertFilesInput, index: number, path: string) {
  const ids = batch.plan.fileIds.get(index) as string[];
  for (const [i, input] of change.files.entries()) {
    const { bytes, ...file } = readFile(input, ids[i], `${path}.files[${i}]`);
    await batch.editor.putFile(file);
    batch.insertedFiles.push(bytes === undefined ? file : { ...file, bytes });
  }
}

/** A file of an insert_files change, checked: exactly one source, an http(s) URL or base64 bytes. */
export function readFile(input: unknown, id: string, path: string): InsertedFile {
  if (!isRecord(input)) throw invalid(`${path}: must be an object`);
  const name = requireString(input.name, `${path}.name`);
  if (name.length > MAX_NAME_LENGTH)
    throw invalid(`${path}.name: is longer than ${MAX_NAME_LENGTH} characters`);
  const contentType = optionalString(input.contentType, `${path}.contentType`) || undefined;
  if ((input.url === undefined) === (input.base64 === undefined))
    throw invalid(`${path}: must have exactly one of url and base64`);
  if (input.url !== undefined) {
    const url = checkUrl(input.url, `${path}.url`);
    return { id, name, contentType: contentType ?? contentTypeOf(name), downloadURL: url, size: 0 };
  }
  if (contentType === undefined) throw invalid(`${path}.contentType: is required with base64`);
  // The type its download is served with, in a header.
  if (contentType.length > 255 || !MIME_TYPE.test(contentType))
    throw invalid(`${path}.contentType: must be a MIME type, as type/subtype`);
  const bytes = decodeBase64(input.base64, `${path}.base64`);
  return { id, name, contentType, downloadURL: '', size: bytes.length, bytes };
}

function checkUrl(value: unknown, path: string): string {
  const url = requireString(value, path);
  if (url.length > MAX_URL_LENGTH) throw invalid(`${path}: is longer than ${MAX_URL_LENGTH} characters`);
  if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol))
    throw invalid(`${path}: must be an http(s) URL`);
  return url;
}

/** Base64 (or base64url) text, whitespace allowed; refused before decoding when it is too large. */
function decodeBase64(value: unknown, path: string): Buffer {
  if (typeof value !== 'string') throw invalid(`${path}: must be a string`);
  const text = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.length % 4 === 1)
    throw invalid(`${path}: is not valid base64`);
  const size = Math.floor((text.replace(/=+$/, '').length * 3) / 4);
  if (size > MAX_FILE_BYTES) throw invalid(`${path}: decodes to more than 1 MiB`);
  return Buffer.from(text, 'base64');
}
