import { describedRule } from '@app/platform/openapi/described-rule';
import { gitbookSchemaProblem } from '@app/platform/openapi/gitbook-schema-check';
import { ValidateBy, ValidateIf } from 'class-validator';

const BASE = '#/components/schemas/SiteCustomizationSettingsBase';

let settings: { properties: Record<string, unknown>; required: string[] } | undefined;

/** The settings GitBook's `SiteCustomizationSettingsBase` lists, read from its document on first use. */
function settingsBase() {
  if (!settings) {
    const spec = require('@gitbook/api/spec/openapi.json') as {
      components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
    };
    const base = spec.components.schemas.SiteCustomizationSettingsBase;
    settings = { properties: base.properties, required: base.required ?? [] };
  }
  return settings;
}

/** The problem of a setting of a site's customization, by GitBook's `SiteCustomizationSettingsInput`. */
export function customizationProblem(key: string, value: unknown): string | null {
  const { properties, required } = settingsBase();
  if (!(key in properties)) return `${key} is not a known property`;
  if (value === undefined) return required.includes(key) ? `${key} is required` : null;
  return gitbookSchemaProblem(`${BASE}/properties/${key}`, value, key);
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
