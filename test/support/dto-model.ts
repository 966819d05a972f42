import { bodyExampleOf } from '@app/platform/openapi/body-example';
import type { Type } from '@nestjs/common';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, ValidationTypes } from 'class-validator';

/**
 * What class-validator's metadata says about a DTO, in the terms the bad-input suite generates from. A rule it
 * has no generator for is listed in `unsupported`, so a new kind of field makes the suite fail until extended.
 */
export interface FieldModel {
  name: string;
  /** @IsOptional / @ValidateIf conditions: the field is validated only when all of them hold. */
  conditions: Condition[];
  /** Validated when absent: no @IsOptional / @ValidateIf lets an absent value through. */
  required: boolean;
  /** Some condition skips validation for null, so null is accepted. */
  acceptsNull: boolean;
  isString: boolean;
  isBoolean: boolean;
  isInt: boolean;
  isObject: boolean;
  isRFC3339: boolean;
  maxLength?: number;
  minLength?: number;
  /**
   * Checked against GitBook's schema for it (`@CustomizationSetting`): the value of the DTO's
   * `@BodyExample` for the field is a valid one, and a value of another JSON type a wrong one.
   */
  schemaChecked?: { example: unknown };
  /** Refuses control characters but tab (`@Text`), and but line breaks too with `lines`. */
  controlFree?: 'line' | 'lines';
  /** `@Emoji`: one emoji, or its code points in hexadecimal, or "". */
  emoji?: boolean;
  min?: number;
  max?: number;
  pattern?: RegExp;
  values?: unknown[];
  /** `@NotServed`: GitBook's field for a feature not served; every value given is refused. */
  notServed?: boolean;
  nested?: DtoModel;
  /**
   * `@IsArray` with `@ArrayMinSize`/`@ArrayMaxSize`: a list whose items are `items` objects (nested with
   * `each`). The suites send wrong types, and empty or over-long lists; the items' own fields are checked
   * by the DTO and the domain, and not generated here.
   */
  array?: { min: number; max?: number; items?: DtoModel; itemPattern?: RegExp; itemValues?: unknown[] };
}

export interface DtoModel {
  type: Type;
  fields: FieldModel[];
  unsupported: string[];
}

/** Constraint names the generators know; any other makes the field unsupported. */
const KNOWN = new Set([
  'isString',
  'isBoolean',
  'isInt',
  'isObject',
  'isRFC3339',
  'maxLength',
  'minLength',
  'customizationSetting',
  'min',
  'max',
  'matches',
  'isIn',
  'isOptional',
  'noControlCharacters',
  'isEmoji',
  'isArray',
  'isMergeRules',
  'notServed',
  'arrayMinSize',
  'arrayMaxSize',
]);

export type Condition = (object: Record<string, unknown>, value: unknown) => boolean;

const cache = new Map<Type, DtoModel>();

export function dtoModel(type: Type): DtoModel {
  const known = cache.get(type);
  if (known) return known;
  const model: DtoModel = { type, fields: [], unsupported: [] };
  cache.set(type, model);
  const metas = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
  const names = [...new Set(metas.map((m) => m.propertyName))];
  for (const name of names) {
    const own = metas.filter((m) => m.propertyName === name);
    const conditions = own
      .filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION)
      .map((m) => m.constraints[0] as Condition);
    const field: FieldModel = {
      name,
      conditions,
      required: conditions.every((c) => c({}, undefined)),
      acceptsNull: conditions.some((c) => !c({ [name]: null }, null)),
      isString: false,
      isBoolean: false,
      isInt: false,
      isObject: false,
      isRFC3339: false,
    };
    for (const meta of own) {
      const listed = own.some((m) => m.name === 'isArray');
      // A list of strings each matching a pattern (ids): its items' pattern, for valid values.
      if (meta.each && listed && meta.name === 'matches') {
        field.array = { min: 0, ...field.array, itemPattern: meta.constraints?.[0] as RegExp };
        continue;
      }
      // A list of values of an enumeration (`@QueryList`: a query key given once per value).
      if (meta.each && listed && meta.name === 'isIn') {
        field.array = { min: 0, ...field.array, itemValues: meta.constraints?.[0] as unknown[] };
        continue;
      }
      if (meta.each && !(listed && meta.type === ValidationTypes.NESTED_VALIDATION))
        model.unsupported.push(`${type.name}.${name}: ${meta.name} with each`);
      if (meta.type === ValidationTypes.CONDITIONAL_VALIDATION) continue;
      if (meta.type === ValidationTypes.NESTED_VALIDATION && meta.each) {
        const items = defaultMetadataStorage.findTypeMetadata(type, name)?.typeFunction() as Type | undefined;
        if (!items) model.unsupported.push(`${type.name}.${name}: nested list without @Type`);
        else field.array = { ...(field.array ?? { min: 0 }), items: dtoModel(items) };
        continue;
      }
      if (meta.type === ValidationTypes.NESTED_VALIDATION) {
        // The class `@Type` names (a generic field's declared type is only Object), else the declared one.
        const nested =
          defaultMetadataStorage.findTypeMetadata(type, name)?.typeFunction() ??
          Reflect.getMetadata('design:type', type.prototype, name);
        if (typeof nested !== 'function' || nested === Object) {
          model.unsupported.push(`${type.name}.${name}: nested type is not a class`);
        } else {
          field.nested = dtoModel(nested as Type);
          field.isObject = true;
        }
        continue;
      }
      if (meta.type === ValidationTypes.WHITELIST) continue;
      if (meta.type !== ValidationTypes.CUSTOM_VALIDATION || !meta.name || !KNOWN.has(meta.name)) {
        model.unsupported.push(`${type.name}.${name}: ${meta.name ?? meta.type}`);
        continue;
      }
      const [first] = meta.constraints ?? [];
      switch (meta.name) {
        case 'isString':
          field.isString = true;
          break;
        case 'isBoolean':
          field.isBoolean = true;
          break;
        case 'isInt':
          field.isInt = true;
          break;
        case 'isObject':
          field.isObject = true;
          break;
        case 'isRFC3339':
          field.isRFC3339 = true;
          break;
        case 'maxLength':
          field.maxLength = first as number;
          break;
        case 'minLength':
          field.minLength = first as number;
          break;
        case 'customizationSetting':
          field.schemaChecked = { example: bodyExampleOf(type)?.[name] };
          break;
        case 'min':
          field.min = first as number;
          break;
        case 'max':
          field.max = first as number;
          break;
        case 'matches':
          field.pattern = first as RegExp;
          break;
        case 'isIn':
          field.values = first as unknown[];
          break;
        case 'isEmoji':
          field.emoji = true;
          break;
        case 'noControlCharacters':
          field.controlFree = first === true ? 'lines' : 'line';
          break;
        case 'isMergeRules':
          field.isObject = true;
          break;
        case 'notServed':
          field.notServed = true;
          break;
        case 'isArray':
          field.array = { min: 0, ...field.array };
          break;
        case 'arrayMinSize':
          field.array = { ...field.array, min: first as number };
          break;
        case 'arrayMaxSize':
          field.array = { min: 0, ...field.array, max: first as number };
          break;
      }
    }
    model.fields.push(field);
  }
  for (const nested of model.fields.flatMap((f) => (f.nested ? [f.nested] : []))) {
    model.unsupported.push(...nested.unsupported);
  }
  model.unsupported = [...new Set(model.unsupported)];
  return model;
}

/** A field with the chain of objects that leads to it: `position.before.type`. */
export interface FieldPath {
  path: string[];
  field: FieldModel;
  /** The fields along the way, outermost first, ending with `field`. */
  chain: FieldModel[];
}

/** Every field of the DTO, nested ones included, each with its path. */
export function fieldPaths(model: DtoModel, prefix: FieldModel[] = []): FieldPath[] {
  return model.fields.flatMap((field) => {
    const chain = [...prefix, field];
    const here: FieldPath = { path: chain.map((f) => f.name), field, chain };
    if (!field.nested || prefix.some((f) => f.nested === field.nested)) return [here];
    return [here, ...fieldPaths(field.nested, chain)];
  });
}

/** The object models in the DTO: the root (path []) and each nested object field. */
export function objectPaths(model: DtoModel): { path: string[]; chain: FieldModel[]; model: DtoModel }[] {
  return [
    { path: [], chain: [], model },
    ...fieldPaths(model).flatMap((p) =>
      p.field.nested ? [{ path: p.path, chain: p.chain, model: p.field.nested }] : [],
    ),
  ];
}
