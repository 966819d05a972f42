import { IsIn, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import type { VisitorAuthBackend } from '../domain/publishing-auth.decider';
import type { PublishingAuthUpdate } from '../write/publishing-auth.commands';

const BACKENDS: VisitorAuthBackend[] = ['custom', 'integration'];

/** The shape of an http(s) URL; the decider parses it fully. */
const HTTP_URL = /^[Hh][Tt][Tt][Pp][Ss]?:\/\/\S+$/;

/** An http(s) URL, or null to unset it; omitted, it is left as it is. */
function OptionalUrl(field: string): PropertyDecorator {
  return (target, key) => {
    ValidateIf((_o, value) => value !== undefined && value !== null)(target, key);
    IsString()(target, key);
    MaxLength(2048)(target, key);
    Matches(HTTP_URL, { message: `${field} must be an http or https URL` })(target, key);
  };
}

/** GitBook's `SitePublishingAuthUpdate`. */
export class UpdatePublishingAuthDto implements PublishingAuthUpdate {
  @IsIn(BACKENDS)
  backend: VisitorAuthBackend;

  @OptionalUrl('fallbackURL')
  fallbackURL?: string | null;

  @OptionalUrl('logoutURL')
  logoutURL?: string | null;
}
