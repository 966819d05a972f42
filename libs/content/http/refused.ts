import { describedRule } from '@app/platform/openapi/validation-schemas';
import { ValidateBy, ValidateIf } from 'class-validator';

/**
 * A field of GitBook's request that names a feature this service does not have: any value, null
 * included, is a 400 that names the field and says why, rather than a value silently ignored. The API
 * reference lists it as accepting no value.
 */
export function Refused(reason: string): PropertyDecorator {
  return (target, key) => {
    ValidateIf((_object, value) => value !== undefined)(target, key);
    ValidateBy({
      name: 'isRefused',
      constraints: [describedRule({ not: {}, description: `Refused: ${reason}.` })],
      validator: {
        validate: () => false,
        defaultMessage: () => `${String(key)}: ${reason}`,
      },
    })(target, key);
  };
}
