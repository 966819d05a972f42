import { aggregate } from '@app/platform/domain/aggregate';
import { shareLinkDecider, shareLinkStream } from './share-link.decider';

export type { ShareLinkCommand } from './share-link.decider';

/**
 * A share link of a site, in a stream of its own (`share-link-{id}`) so that links change without
 * contending with their site's settings. Written through `shareLinkAggregate.message(id, command, ctx)`.
 */
export const shareLinkAggregate = aggregate({
  name: 'share-link',
  decider: shareLinkDecider,
  stream: shareLinkStream,
});
