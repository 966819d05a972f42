import { aggregate } from '@app/platform/domain/aggregate';
import { publishingAuthDecider, publishingAuthStream } from './publishing-auth.decider';

/** A site's publishing auth (`site-publishing-auth-{siteId}`), written through `publishingAuthAggregate.message`. */
export const publishingAuthAggregate = aggregate({
  name: 'site-publishing-auth',
  decider: publishingAuthDecider,
  stream: publishingAuthStream,
});
