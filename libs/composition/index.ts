export * from './app.module';
export * from './bootstrap';
export * from './catalog';
export * from './core.module';
export * from './create-app';
export * from './runtime';
export * from './storage';
