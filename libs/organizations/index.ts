export * from './domain/organization.decider';
export * from './domain/organization.permissions';
export * from './organizations.module';
export * from './read/organization.projection';
export * from './write/organization.commands';
