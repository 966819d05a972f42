export * from './bullmq-job-queue';
export * from './in-process-job-queue';
export * from './job-queue.options';
export * from './job-queue.port';
