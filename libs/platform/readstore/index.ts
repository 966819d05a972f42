export * from './mongo-read-store';
export * from './read-store.port';
export * from './sqlite-read-store';
