import {
  type ArgumentMetadata,
  BadRequestException,
  type Type,
  type ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import {
  getMetadataStorage,
  ValidateIf,
  type ValidationArguments,
  type ValidationOptions,
  ValidationTypes,
} from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

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

/**
 * Room for the deepest document a request may carry (documents have their own bound, 64 levels of
 * nodes, two JSON levels each, in a body a few levels deep), and far deeper than any DTO; class-transformer
 * recurses once per level and overflows the stack in the thousands.
 */
const MAX_DEPTH = 160;

/**
 * Half of a UTF-16 surrogate pair alone (`"\ud800"` in JSON): no character, so no UTF-8 can store or
 * answer it; with the `u` flag a whole pair is one code point and does not match.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Refuses those keys, over-deep nesting and strings that are not text (a lone surrogate) in a parsed
 * body or query, walked without recursion.
 */
function checkShape(value: unknown): void {
  const stack: { value: unknown; path: string; top: string; depth: number }[] = [
    { value, path: '', top: '', depth: 0 },
  ];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: current, path, top, depth } = next;
    if (typeof current === 'string' && LONE_SURROGATE.test(current))
      throw new BadRequestException(
        `${path || 'body'}: holds a lone UTF-16 surrogate, which is no character`,
      );
    if (current === null || typeof current !== 'object') continue;
    if (depth > MAX_DEPTH) throw new BadRequestException(`${top}: nested more than ${MAX_DEPTH} levels deep`);
    for (const key of Object.keys(current)) {
      const at = path ? `${path}.${key}` : key;
      if (PROTOTYPE_KEYS.has(key)) throw new BadRequestException(`property ${at} should not exist`);
      if (LONE_SURROGATE.test(key))
        throw new BadRequestException(
          `${path || 'body'}: a key holds a lone UTF-16 surrogate, which is no character`,
        );
      stack.push({
        value: (current as Record<string, unknown>)[key],
        path: at,
        top: top || key,
        depth: depth + 1,
      });
    }
  }
}

/** A property of a query DTO as `leanQuery` checks it. */
interface LeanProperty {
  name: string;
  /** `@Type(() => Number)`: class-transformer makes a number of the string. */
  toNumber: boolean;
  /** `@ValidateIf` and `@IsOptional`: the property is checked only when all hold. */
  conditions: ((object: object, value: unknown) => boolean)[];
  checks: {
    metadata: ValidationMetadata;
    validate: (value: unknown, args: ValidationArguments) => unknown;
  }[];
}

/** Per query DTO: its properties as `leanQuery` checks them, or null when only the full pipe can. */
const leanQueries = new WeakMap<Type, Map<string, LeanProperty> | null>();

/**
 * The properties of a query DTO whose every rule is a synchronous constraint or a condition and which
 * class-transformer copies as they are (or as numbers): what class-validator would run for it with this
 * pipe's options, read once from both libraries' metadata.
 */
function leanProperties(metatype: Type): Map<string, LeanProperty> | null {
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(metatype, '', false, false, undefined);
  if (metadatas.length === 0) return null;
  if (defaultMetadataStorage.getExposedMetadatas(metatype).length > 0) return null;
  if (defaultMetadataStorage.getExcludedMetadatas(metatype).length > 0) return null;
  const properties = new Map<string, LeanProperty>();
  for (const metadata of metadatas) {
    const name = metadata.propertyName;
    let property = properties.get(name);
    if (!property) {
      if (name in metatype.prototype || PROTOTYPE_KEYS.has(name)) return null;
      if (
        defaultMetadataStorage.findTransformMetadatas(metatype, name, TransformationType.PLAIN_TO_CLASS)
          .length
      )
        return null;
      const type = defaultMetadataStorage.findTypeMetadata(metatype, name);
      if (type && type.typeFunction() !== Number) return null;
      property = { name, toNumber: type !== undefined, conditions: [], checks: [] };
      properties.set(name, property);
    }
    if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      property.conditions.push(metadata.constraints[0]);
    } else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION) {
      for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
        if (constraint.async) return null;
        property.checks.push({ metadata, validate: (v, args) => constraint.instance.validate(v, args) });
      }
    } else if (metadata.type !== ValidationTypes.WHITELIST) {
      return null;
    }
  }
  return properties;
}

/**
 * The DTO the full pipe would make of a query, when it is a flat object of strings that passes every
 * rule; else undefined, and the full pipe (class-transformer, class-validator) runs and says what is wrong.
 * The same rules run here, without the per-call cost of class-validator finding them among every DTO's
 * metadata, grouping them and making an error record per property.
 */
export function leanQuery(value: unknown, metatype: Type): object | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  let properties = leanQueries.get(metatype);
  if (properties === undefined) {
    try {
      properties = leanProperties(metatype);
    } catch {
      properties = null;
    }
    leanQueries.set(metatype, properties);
  }
  if (!properties) return undefined;
  const entity = new metatype() as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    const given = (value as Record<string, unknown>)[key];
    const property = properties.get(key);
    if (!property || typeof given !== 'string') return undefined;
    entity[key] = property.toNumber ? Number(given) : given;
  }
  for (const key of Object.keys(entity)) if (!properties.has(key)) return undefined;
  for (const property of properties.values()) {
    const current = entity[property.name];
    if (!property.conditions.every((holds) => holds(entity, current))) continue;
    for (const { metadata, validate } of property.checks) {
      if (metadata.validateIf && !metadata.validateIf(entity, current)) continue;
      const args: ValidationArguments = {
        targetName: metatype.name,
        property: property.name,
        object: entity,
        value: current,
        constraints: metadata.constraints,
      };
      if (validate(current, args) !== true) return undefined;
    }
  }
  return entity;
}

class StrictValidationPipe extends ValidationPipe {
  /**
   * A DTO is an object. Nest validates an array or a primitive through a stand-in, so the answer would name
   * the array's indexes or the DTO's required fields rather than the value itself.
   */
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A valid query of strings, the common case, made without the full pipe; anything else goes through it.
    if (metadata.type === 'query' && metadata.metatype && this.toValidate(metadata)) {
      const lean = leanQuery(value, metadata.metatype);
      if (lean) return lean;
    }
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
