import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { DEFAULT_LEVELS } from '../domain/roles';

/** A default level: a role, `inherit`, or null for guests. */
export function IsDefaultLevel(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsIn([...DEFAULT_LEVELS], {
      message: `${String(key)} must be one of ${DEFAULT_LEVELS.join(', ')} or null`,
    })(target, key);
  };
}

/** A boolean query parameter: only `true` and `false` are accepted. */
export function BooleanQuery(): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))(target, key);
    IsOptional()(target, key);
    IsBoolean({ message: `${String(key)} must be true or false` })(target, key);
  };
}
