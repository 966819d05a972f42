/** What a process does; each app composes the feature modules for its role. */
export type ServiceRole = 'standalone' | 'gateway' | 'command' | 'query' | 'worker' | 'cli';
