/**
 * class-transformer keeps `@Type` metadata in a storage it publishes under `cjs/` (typed under `types/`),
 * which this project's `moduleResolution: node` does not pair up.
 */
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
