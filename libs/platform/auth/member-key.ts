/** The id of a membership in the `members` view; apart from `Access` so that projections need no Nest. */
export const memberKey = (organization: string, userId: string) => `${organization}:${userId}`;
