export * from './blob-store.port';
export * from './file-blob-store';
export * from './mongo-blob-store';
