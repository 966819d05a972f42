import { type Decider, decideBy, invalid } from '@app/platform/domain/decider';

/**
 * Who authenticates a site's visitors (GitBook's `VisitorAuthCustomBackend`/`…IntegrationBackend`):
 * the site's own backend, which signs visitor tokens with the site's key, or an integration.
 */
export type VisitorAuthBackend = 'custom' | 'integration';

export interface PublishingAuthRef {
  siteId: string;
  organization: string;
}

/** An update: `backend` always; a URL omitted is left as it is, null unsets it. */
export interface PublishingAuthUpdate {
  backend: VisitorAuthBackend;
  fallbackURL?: string | null;
  logoutURL?: string | null;
}

/**
 * A site's publishing auth: its settings, and the generation of its private key. The key itself is
 * derived from the site and the generation (`PublishingAuthKeys`), never stored: regenerating it moves
 * the generation, and tokens signed with the old key stop verifying.
 */
export interface PublishingAuthState {
  backend: VisitorAuthBackend;
  fallbackURL: string | null;
  logoutURL: string | null;
  keyGeneration: number;
}

export type PublishingAuthEvent =
  | {
      type: 'SitePublishingAuthUpdated';
      data: PublishingAuthRef & {
        backend: VisitorAuthBackend;
        fallbackURL: string | null;
        logoutURL: string | null;
        updatedAt: string;
      };
    }
  | {
      type: 'SitePublishingAuthKeyRegenerated';
      data: PublishingAuthRef & { keyGeneration: number; regeneratedAt: string };
    };

export type PublishingAuthCommand =
  | (PublishingAuthRef & { type: 'UpdatePublishingAuth'; update: PublishingAuthUpdate; at: number })
  | (PublishingAuthRef & { type: 'RegeneratePublishingAuthKey'; at: number });

const iso = (ms: number) => new Date(ms).toISOString();

/** What a site's publishing auth is before anything is set: its own backend, key generation 0. */
export const DEFAULT_PUBLISHING_AUTH: PublishingAuthState = {
  backend: 'custom',
  fallbackURL: null,
  logoutURL: null,
  keyGeneration: 0,
};

/** An http(s) URL, or null; the field is named in the refusal. */
function checkedUrl(value: string | null, field: string): string | null {
  if (value === null) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${field} must be an http or https URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid(`${field} must be an http or https URL`);
  return value;
}

const refOf = (c: PublishingAuthRef): PublishingAuthRef => ({
  siteId: c.siteId,
  organization: c.organization,
});

export const publishingAuthDecider: Decider<PublishingAuthCommand, PublishingAuthEvent, PublishingAuthState> =
  {
    initialState: DEFAULT_PUBLISHING_AUTH,

    decide: decideBy<PublishingAuthCommand, PublishingAuthEvent, PublishingAuthState>({
      UpdatePublishingAuth: (command, state) => {
        const { backend, fallbackURL, logoutURL } = command.update;
        // No integration can be installed on a site here, so none can authenticate its visitors.
        if (backend === 'integration')
          throw invalid('backend: no authenticated access integration is installed on this site; use custom');
        const next = {
          backend,
          fallbackURL: fallbackURL === undefined ? state.fallbackURL : checkedUrl(fallbackURL, 'fallbackURL'),
          logoutURL: logoutURL === undefined ? state.logoutURL : checkedUrl(logoutURL, 'logoutURL'),
        };
        const same =
          next.backend === state.backend &&
          next.fallbackURL === state.fallbackURL &&
          next.logoutURL === state.logoutURL;
        if (same) return [];
        return [
          {
            type: 'SitePublishingAuthUpdated',
            data: { ...refOf(command), ...next, updatedAt: iso(command.at) },
          },
        ];
      },

      RegeneratePublishingAuthKey: (command, state) => [
        {
          type: 'SitePublishingAuthKeyRegenerated',
          data: { ...refOf(command), keyGeneration: state.keyGeneration + 1, regeneratedAt: iso(command.at) },
        },
      ],
    }),

    evolve(state, event) {
      switch (event.type) {
        case 'SitePublishingAuthUpdated': {
          const { backend, fallbackURL, logoutURL } = event.data;
          return { ...state, backend, fallbackURL, logoutURL };
        }
        case 'SitePublishingAuthKeyRegenerated':
          return { ...state, keyGeneration: event.data.keyGeneration };
        default:
          return state;
      }
    },
  };

/** One stream per site: its visitors' authentication changes apart from its settings. */
export const publishingAuthStream = (siteId: string) => `site-publishing-auth-${siteId}`;
