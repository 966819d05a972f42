export * from './collections.module';
export * from './domain/collection.decider';
export * from './http/position.dto';
export * from './read/collection.projection';
export * from './read/placement';
export * from './write/collection.commands';
