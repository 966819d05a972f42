import { BooleanQuery } from '@app/platform/http/fields';
import { BodyExample } from '@app/platform/openapi/body-example';
import { DEFAULT_CUSTOMIZATION } from '../domain/site-customization';
import { CustomizationSetting } from './customization.field';

/**
 * GitBook's `SiteCustomizationSettingsInput`, replacing the site's customization whole: each setting is
 * checked against its schema in GitBook's document.
 */
@BodyExample(DEFAULT_CUSTOMIZATION)
export class SiteCustomizationDto {
  @CustomizationSetting({ required: false })
  title?: string;

  @CustomizationSetting({ required: false })
  localizedTitle?: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  styling: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  internationalization: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  favicon: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  header: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  footer: Record<string, unknown>;

  @CustomizationSetting({ required: false })
  announcement?: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  themes: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  feedback: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  ai: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  advancedCustomization: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  pageActions: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  externalLinks: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  pagination: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  trademark: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  privacyPolicy: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  socialPreview: Record<string, unknown>;

  @CustomizationSetting({ required: true })
  socialAccounts: unknown[];

  @CustomizationSetting({ required: true })
  insights: Record<string, unknown>;
}

export class SiteCustomizationQueryDto {
  /** GitBook's deprecated `unmasked`: nothing in a customization is masked here, so both read the same. */
  @BooleanQuery()
  unmasked?: boolean;
}
