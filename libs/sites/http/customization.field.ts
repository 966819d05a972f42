import { describedRule } from '@app/platform/openapi/described-rule';
import { ValidateBy, ValidateIf } from 'class-validator';
import { type Schema, schemaProblem } from '../domain/schema-check';

type Components = Record<string, Schema>;

let components: Components | undefined;

/**
 * GitBook's component schemas, read from its published document (`@gitbook/api`) the first time a
 * customization is checked: the customization has some sixty schemas, kept there rather than copied.
 */
function gitbookSchemas(): Components {
  if (!components) {
    // Loaded on first use, not when the module loads: the document is 1.7 MB.
    const spec = require('@gitbook/api/spec/openapi.json') as { components: { schemas: Components } };
    components = spec.components.schemas;
  }
  return components;
}

const resolve = (ref: string): Schema => {
  const name = ref.replace('#/components/schemas/', '');
  const schema = gitbookSchemas()[name];
  if (!schema) throw new Error(`no schema ${name} in GitBook's document`);
  return schema;
};

const INPUT = '#/components/schemas/SiteCustomizationSettingsBase';

/** The problem of a setting of a site's customization, by GitBook's `SiteCustomizationSettingsInput`. */
export function customizationProblem(key: string, value: unknown): string | null {
  const base = resolve(INPUT);
  const schema = (base.properties as Record<string, Schema>)[key];
  if (!schema) return `${key} is not a known property`;
  if (value === undefined) return (base.required as string[]).includes(key) ? `${key} is required` : null;
  return schemaProblem(schema, value, key, resolve);
}

/**
 * A top-level setting of a site's customization, checked against its schema in GitBook's document: a
 * 400 naming the setting's path (`styling.primaryColor.light must match …`).
 */
export function CustomizationSetting(options: { required: boolean }): PropertyDecorator {
  return (target, key) => {
    if (!options.required) ValidateIf((_o, value) => value !== undefined)(target, key);
    ValidateBy({
      name: 'customizationSetting',
      constraints: [describedRule({ description: `GitBook's SiteCustomizationSettings \`${String(key)}\`` })],
      validator: {
        validate: (value) => customizationProblem(String(key), value) === null,
        defaultMessage: (args) =>
          customizationProblem(String(key), args?.value) ?? `${String(key)} is not valid`,
      },
    })(target, key);
  };
}
