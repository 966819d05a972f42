import { conflict, type Decider, invalid, notFound } from '@app/platform/domain/decider';
import type { Role } from '@app/platform/domain/roles';
import { readCertificate } from './certificate';

/** A provider as stored: what is not configured yet is null (the provider is then pending). */
export interface SamlProviderSettings {
  label: string;
  entityID: string | null;
  ssoURL: string | null;
  /** The identity provider's certificate, one normalized PEM block. */
  certificate: string | null;
  /** A team id; whether the team exists is not checked here. */
  defaultTeam: string | null;
  defaultRole: Role | null;
}

/** What a request gives: strings as sent ("" clears entityID, ssoURL and certificate). */
export interface SamlProviderInput {
  label?: string;
  entityID?: string;
  ssoURL?: string;
  certificate?: string;
  defaultTeam?: string;
  defaultRole?: Role | null;
}

export type SamlProviderChanges = Partial<SamlProviderSettings>;

interface SamlProviderFacts extends SamlProviderSettings {
  id: string;
  organization: string;
}

export type SamlProviderState =
  | { status: 'none' }
  | ({ status: 'active' } & SamlProviderFacts)
  | { status: 'deleted'; id: string; organization: string };

export type SamlProviderEvent =
  | { type: 'SamlProviderCreated'; data: SamlProviderFacts & { createdAt: string } }
  | {
      type: 'SamlProviderUpdated';
      data: { samlProviderId: string; organization: string; changes: SamlProviderChanges; updatedAt: string };
    }
  | {
      type: 'SamlProviderDeleted';
      data: { samlProviderId: string; organization: string; deletedAt: string };
    };

export type SamlProviderCommand =
  | {
      type: 'CreateSamlProvider';
      samlProviderId: string;
      organization: string;
      input: SamlProviderInput;
      at: number;
    }
  | { type: 'UpdateSamlProvider'; organization: string; input: SamlProviderInput; at: number }
  | { type: 'DeleteSamlProvider'; organization: string; at: number };

const iso = (ms: number) => new Date(ms).toISOString();

/** The provider of `organization`; one of another organization is not found, as if it did not exist. */
function live(state: SamlProviderState, organization: string): SamlProviderFacts {
  if (state.status !== 'active' || state.organization !== organization)
    throw notFound('SAML provider not found');
  return state;
}

function ssoURL(value: string): string | null {
  if (value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('ssoURL must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid('ssoURL must be an http or https URL');
  return value;
}

/** The settings a request sets, checked and normalized; absent fields are left out. */
function settingsOf(input: SamlProviderInput, at: number): SamlProviderChanges {
  const out: SamlProviderChanges = {};
  if (input.label !== undefined) {
    if (input.label.length < 1 || input.label.length > 30) throw invalid('label must be 1 to 30 characters');
    out.label = input.label;
  }
  if (input.entityID !== undefined) out.entityID = input.entityID === '' ? null : input.entityID;
  if (input.ssoURL !== undefined) out.ssoURL = ssoURL(input.ssoURL);
  if (input.certificate !== undefined) {
    out.certificate = input.certificate.trim() === '' ? null : readCertificate(input.certificate, at);
  }
  if (input.defaultTeam !== undefined) out.defaultTeam = input.defaultTeam;
  if (input.defaultRole !== undefined) out.defaultRole = input.defaultRole;
  return out;
}

export const samlProviderDecider: Decider<SamlProviderCommand, SamlProviderEvent, SamlProviderState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateSamlProvider': {
        if (state.status !== 'none') throw conflict('SAML provider already exists');
        if (command.input.label === undefined) throw invalid('label is required');
        const settings = settingsOf(command.input, command.at);
        return [
          {
            type: 'SamlProviderCreated',
            data: {
              id: command.samlProviderId,
              organization: command.organization,
              label: settings.label as string,
              entityID: settings.entityID ?? null,
              ssoURL: settings.ssoURL ?? null,
              certificate: settings.certificate ?? null,
              defaultTeam: settings.defaultTeam ?? null,
              defaultRole: settings.defaultRole ?? null,
              createdAt: iso(command.at),
            },
          },
        ];
      }
      case 'UpdateSamlProvider': {
        const provider = live(state, command.organization);
        const settings = settingsOf(command.input, command.at);
        const changes: SamlProviderChanges = {};
        for (const key of Object.keys(settings) as (keyof SamlProviderSettings)[]) {
          if (settings[key] !== provider[key]) Object.assign(changes, { [key]: settings[key] });
        }
        if (Object.keys(changes).length === 0) return [];
        return [
          {
            type: 'SamlProviderUpdated',
            data: {
              samlProviderId: provider.id,
              organization: provider.organization,
              changes,
              updatedAt: iso(command.at),
            },
          },
        ];
      }
      case 'DeleteSamlProvider': {
        // Deleting again changes nothing (the answer is the same 204).
        if (state.status === 'deleted' && state.organization === command.organization) return [];
        const provider = live(state, command.organization);
        return [
          {
            type: 'SamlProviderDeleted',
            data: {
              samlProviderId: provider.id,
              organization: provider.organization,
              deletedAt: iso(command.at),
            },
          },
        ];
      }
      default: {
        const unknown: never = command;
        throw invalid(`unknown command ${(unknown as { type: string }).type}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'SamlProviderCreated': {
        const { createdAt: _c, ...facts } = event.data;
        return { status: 'active', ...facts };
      }
      case 'SamlProviderUpdated':
        return state.status === 'active' ? { ...state, ...event.data.changes } : state;
      case 'SamlProviderDeleted':
        return state.status === 'active'
          ? { status: 'deleted', id: state.id, organization: state.organization }
          : state;
      default:
        return state;
    }
  },
};

export const samlProviderStream = (samlProviderId: string) => `saml-provider-${samlProviderId}`;
