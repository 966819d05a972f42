import { v7 } from 'uuid';

/**
 * A new event id: a time-ordered UUID (version 7). Ids made one after the other sort together, so the
 * indexes keyed by them (the log's unique event id, the audit entries) grow at their end instead of
 * taking inserts at random pages. Event ids are not secrets; the time they carry is in the event anyway.
 */
export const newEventId = (): string => v7();
