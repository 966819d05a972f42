export * from './domain/user.decider';
export * from './identity.module';
export * from './read/identity.projection';
export * from './write/identity.commands';
