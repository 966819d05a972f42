export * from './domain/space.decider';
export * from './read/space.projection';
export * from './spaces.module';
export * from './write/space.commands';
export * from './write/space-purge.job';
