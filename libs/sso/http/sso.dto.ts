import { ID_PATTERN } from '@app/platform/domain/ids';
import { ROLES, type Role } from '@app/platform/domain/roles';
import { CONTROL_FREE, Text } from '@app/platform/http/fields';
import { IsAbsentOr } from '@app/platform/http/validation';
import { BodyExample } from '@app/platform/openapi/body-example';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { SamlProviderInput } from '../write/saml-provider.commands';

/** A label: at least one character, none of them a control character (the length limit is `@Text`'s). */
const NON_EMPTY = new RegExp(CONTROL_FREE.replace('*$', '+$'));
/** The shape of an http(s) URL; the decider parses it fully. */
const HTTP_URL = /^[Hh][Tt][Tt][Pp][Ss]?:\/\/\S+$/;

const label = () => Matches(NON_EMPTY, { message: 'label must be 1 to 30 characters' });
const ssoURL = () => Matches(HTTP_URL, { message: 'ssoURL must be an http or https URL' });
const defaultTeam = () => Matches(ID_PATTERN, { message: 'defaultTeam must be a team id' });
const defaultRole = () =>
  IsIn([...ROLES], { message: `defaultRole must be one of ${ROLES.join(', ')} or null` });

/** What creating and updating a provider both take besides its label: each optional. */
class SamlProviderSettingsDto {
  @IsAbsentOr()
  @Text(1024)
  entityID?: string;

  @IsAbsentOr()
  @Text(10_000, { lines: true })
  certificate?: string;

  @IsAbsentOr()
  @Text(2048)
  @ssoURL()
  ssoURL?: string;

  @IsAbsentOr()
  @IsString()
  @defaultTeam()
  defaultTeam?: string;

  @IsOptional()
  @defaultRole()
  defaultRole?: Role | null;
}

// A provider made from its label alone is pending until its settings are given.
@BodyExample({ label: 'Company IdP' })
export class CreateSamlProviderDto extends SamlProviderSettingsDto implements SamlProviderInput {
  @Text(30)
  @label()
  label!: string;
}

export class UpdateSamlProviderDto extends SamlProviderSettingsDto implements SamlProviderInput {
  @IsAbsentOr()
  @Text(30)
  @label()
  label?: string;
}

/** Where a sign-in should land afterwards, handed through the identity provider and back unchanged. */
const RELAY_STATE = /^[\x20-\x7e]*$/;
const relayState = (name: string) =>
  Matches(RELAY_STATE, { message: `${name} must be printable ASCII text of at most 512 characters` });

export class SamlStartQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  @relayState('relayState')
  relayState?: string;
}

/** What an identity provider posts back (the HTTP-POST binding), form-encoded. */
export class SamlResponseDto {
  @IsString()
  @Matches(/^[A-Za-z0-9+/=\r\n]+$/, { message: 'SAMLResponse must be base64' })
  SAMLResponse!: string;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  @relayState('RelayState')
  RelayState?: string;
}
