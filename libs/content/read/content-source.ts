/**
 * Whose content a read is of: the space's current revision (`space`), a change request's (`cr:<id or
 * number>`) or any revision of the space (`rev:<id>`). One string, so that every read is one remote method.
 */
export type ContentSource = string;
export const SOURCE_PATTERN = /^(space|cr:[A-Za-z0-9_-]{1,64}|rev:[A-Za-z0-9_-]{1,64})$/;
