import { aggregate } from '@app/platform/domain/aggregate';
import { samlProviderDecider, samlProviderStream } from './saml-provider.decider';

export type { SamlProviderCommand } from './saml-provider.decider';

/**
 * A SAML provider of an organization.
 * Written through `samlProviderAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const samlProviderAggregate = aggregate({
  name: 'saml-provider',
  decider: samlProviderDecider,
  stream: samlProviderStream,
});
