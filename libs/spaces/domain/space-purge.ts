/** The job that purges a deleted space when its 7 days are up. */
export const PURGE_JOB = 'space.purge';

/** One purge per deletion: a space restored and deleted again gets a new job, the old one does nothing. */
export const purgeJobId = (deletionEventId: string) => `purge-${deletionEventId}`;
