export * from './esdb-event-store';
export * from './event-store.port';
export * from './sqlite-event-store';
