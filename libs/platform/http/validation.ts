import {
  type ArgumentMetadata,
  BadRequestException,
  type ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { ValidateIf, type ValidationOptions } from 'class-validator';

const WORD = /[\p{L}\p{N}_$]/u;

/**
 * The message with its first whole-word mention of the property replaced by the path (so `e` is not found
 * inside "property"), or prefixed with the path when it does not mention it.
 */
function withPath(message: string, property: string, path: string): string {
  if (property !== '') {
    for (let at = message.indexOf(property); at >= 0; at = message.indexOf(property, at + 1)) {
      const before = message[at - 1] ?? '';
      const after = message[at + property.length] ?? '';
      if (!WORD.test(before) && !WORD.test(after)) {
        return message.slice(0, at) + path + message.slice(at + property.length);
      }
    }
  }
  return `${path}: ${message}`;
}

/** Flattens nested validation errors into messages that name the offending field by its path. */
export function describeErrors(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((m) => withPath(m, error.property, path));
    return [...own, ...describeErrors(error.children ?? [], path)];
  });
}

/**
 * Keys that never reach the whitelist check: Nest strips `__proto__`, `constructor` and `prototype`, and
 * class-transformer skips any key every object inherits (`toString`, `valueOf`, …). Unchecked, they would be
 * unknown fields silently accepted.
 */
const PROTOTYPE_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** Far deeper than any DTO; class-transformer recurses once per level and overflows the stack in the thousands. */
const MAX_DEPTH = 64;

/** Refuses those keys and over-deep nesting in a parsed body or query, walked without recursion. */
function checkShape(value: unknown): void {
  const stack: { value: unknown; path: string; top: string; depth: number }[] = [
    { value, path: '', top: '', depth: 0 },
  ];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: current, path, top, depth } = next;
    if (current === null || typeof current !== 'object') continue;
    if (depth > MAX_DEPTH) throw new BadRequestException(`${top}: nested more than ${MAX_DEPTH} levels deep`);
    for (const key of Object.keys(current)) {
      const at = path ? `${path}.${key}` : key;
      if (PROTOTYPE_KEYS.has(key)) throw new BadRequestException(`property ${at} should not exist`);
      stack.push({
        value: (current as Record<string, unknown>)[key],
        path: at,
        top: top || key,
        depth: depth + 1,
      });
    }
  }
}

class StrictValidationPipe extends ValidationPipe {
  /**
   * A DTO is an object. Nest validates an array or a primitive through a stand-in, so the answer would name
   * the array's indexes or the DTO's required fields rather than the value itself.
   */
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const notObject =
      value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value));
    if (notObject && this.toValidate(metadata)) {
      throw new BadRequestException(
        `${metadata.data || metadata.type}: Validation failed (object is expected)`,
      );
    }
    return super.transform(value, metadata);
  }

  /** Runs that check where Nest's pipe would strip the prototype keys, before anything else reads the value. */
  protected override stripProtoKeys(value: unknown): void {
    checkShape(value);
  }
}

/** Unknown fields are rejected, not silently dropped, so a typo never looks like a successful update. */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new BadRequestException(describeErrors(errors).join('; ')),
  });
}

/** Optional, but null is not accepted (unlike @IsOptional): the field is validated unless it is absent. */
export function IsAbsentOr(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined, options);
}
