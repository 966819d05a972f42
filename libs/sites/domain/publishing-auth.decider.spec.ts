import { spec } from '@app/platform/domain/decider.testing';
import { type PublishingAuthEvent, publishingAuthDecider } from './publishing-auth.decider';

const ref = { siteId: 'w1', organization: 'o1' };
const AT = Date.parse('2026-01-01T00:00:00.000Z');
const ISO = '2026-01-01T00:00:00.000Z';
const update = (u: {
  backend: 'custom' | 'integration';
  fallbackURL?: string | null;
  logoutURL?: string | null;
}) => ({ type: 'UpdatePublishingAuth', ...ref, update: u, at: AT }) as const;
const updated = (fallbackURL: string | null, logoutURL: string | null): PublishingAuthEvent => ({
  type: 'SitePublishingAuthUpdated',
  data: { ...ref, backend: 'custom', fallbackURL, logoutURL, updatedAt: ISO },
});

describe('publishing auth decider', () => {
  const auth = spec(publishingAuthDecider);

  it('sets the URLs given, leaves those omitted, unsets those null', () => {
    auth
      .when(update({ backend: 'custom', fallbackURL: 'https://a.com/in' }))
      .thenEmits([updated('https://a.com/in', null)]);
    auth
      .given([updated('https://a.com/in', null)])
      .when(update({ backend: 'custom', logoutURL: 'https://a.com/out' }))
      .thenEmits([updated('https://a.com/in', 'https://a.com/out')]);
    auth
      .given([updated('https://a.com/in', 'https://a.com/out')])
      .when(update({ backend: 'custom', fallbackURL: null }))
      .thenEmits([updated(null, 'https://a.com/out')]);
  });

  it('records nothing when nothing changes', () => {
    auth.when(update({ backend: 'custom' })).thenEmits([]);
    auth
      .given([updated('https://a.com/in', null)])
      .when(update({ backend: 'custom', fallbackURL: 'https://a.com/in' }))
      .thenEmits([]);
  });

  it('refuses a URL that is not http(s), and the integration backend (none can be installed)', () => {
    auth
      .when(update({ backend: 'custom', logoutURL: 'javascript:alert(1)' }))
      .thenThrows('invalid', /logoutURL/);
    auth.when(update({ backend: 'custom', fallbackURL: 'https://' })).thenThrows('invalid', /fallbackURL/);
    auth.when(update({ backend: 'integration' })).thenThrows('invalid', /backend/);
  });

  it('regenerates the key by moving its generation', () => {
    const regenerated = (keyGeneration: number): PublishingAuthEvent => ({
      type: 'SitePublishingAuthKeyRegenerated',
      data: { ...ref, keyGeneration, regeneratedAt: ISO },
    });
    auth.when({ type: 'RegeneratePublishingAuthKey', ...ref, at: AT }).thenEmits([regenerated(1)]);
    auth
      .given([regenerated(1), updated(null, null)])
      .when({ type: 'RegeneratePublishingAuthKey', ...ref, at: AT })
      .thenEmits([regenerated(2)]);
  });
});
