import { invalid } from '@app/platform/domain/decider';
import {
  type ResourceCommand,
  type ResourceEvent,
  type ResourceState,
  resourceDecider,
} from '@app/platform/domain/resource-decider';
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

const NAMES = {
  create: 'CreateSamlProvider',
  update: 'UpdateSamlProvider',
  delete: 'DeleteSamlProvider',
  created: 'SamlProviderCreated',
  updated: 'SamlProviderUpdated',
  deleted: 'SamlProviderDeleted',
} as const;

export type SamlProviderState = ResourceState<'samlProviderId', SamlProviderSettings>;
export type SamlProviderEvent = ResourceEvent<'samlProviderId', SamlProviderSettings, typeof NAMES>;
export type SamlProviderCommand = ResourceCommand<'samlProviderId', SamlProviderInput, typeof NAMES>;

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

/** A provider of an organization: a label at least; what is not configured yet is null (pending). */
export const samlProviderDecider = resourceDecider({
  what: 'SAML provider',
  idKey: 'samlProviderId',
  names: NAMES,
  create: (input: SamlProviderInput, at: number): SamlProviderSettings => {
    if (input.label === undefined) throw invalid('label is required');
    const settings = settingsOf(input, at);
    return {
      label: input.label,
      entityID: settings.entityID ?? null,
      ssoURL: settings.ssoURL ?? null,
      certificate: settings.certificate ?? null,
      defaultTeam: settings.defaultTeam ?? null,
      defaultRole: settings.defaultRole ?? null,
    };
  },
  update: (input: SamlProviderInput, _current: SamlProviderSettings, at: number) => settingsOf(input, at),
});

export const samlProviderStream = (samlProviderId: string) => `saml-provider-${samlProviderId}`;
