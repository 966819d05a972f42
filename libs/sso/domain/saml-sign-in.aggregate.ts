import { aggregate } from '@app/platform/domain/aggregate';
import { samlSignInDecider, samlSignInStream } from './saml-sign-in.decider';

export type { SamlSignInCommand } from './saml-sign-in.decider';

/**
 * The sign-ins through one SAML provider (each assertion accepted once).
 * Written through `samlSignInAggregate.message(id, command, ctx)` on the `CommandBus`.
 */
export const samlSignInAggregate = aggregate({
  name: 'saml-sign-in',
  decider: samlSignInDecider,
  stream: samlSignInStream,
});
