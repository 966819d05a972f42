export * from './audit.module';
export * from './domain/actions';
export * from './domain/audit-entry';
export * from './domain/audited-events';
export * from './domain/redact';
export * from './http/audit.presenter';
export * from './read/audit.projection';
export * from './read/audit-stream';
