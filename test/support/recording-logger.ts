import type { JobQueueLogger } from '@app/platform/jobs';

/** A job queue's logger that keeps what it is told, by level. */
export interface RecordingLogger extends JobQueueLogger {
  infos: string[];
  warnings: string[];
  errors: string[];
}

export function recordingLogger(): RecordingLogger {
  const infos: string[] = [];
  const warnings: string[] = [];
  const errors: string[] = [];
  return {
    infos,
    warnings,
    errors,
    info: (msg) => infos.push(msg),
    warn: (msg) => warnings.push(msg),
    error: (msg) => errors.push(msg),
  };
}
