import { BadRequestException, type PipeTransform } from '@nestjs/common';
import { ID_PATTERN } from '../domain/ids';

/** Path ids are checked before any lookup: a malformed one is a 400 naming the parameter. */
export class IdPipe implements PipeTransform<string, string> {
  constructor(private readonly name: string) {}
  transform(value: string): string {
    return checkId(this.name, value);
  }
}

/** `value` when it is a well-formed id; else the 400 naming the parameter `name`. */
export function checkId(name: string, value: unknown): string {
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) {
    throw new BadRequestException(`${name}: must be an id of 1 to 64 letters, digits, "-" or "_"`);
  }
  return value;
}

export const id = (name: string) => new IdPipe(name);
