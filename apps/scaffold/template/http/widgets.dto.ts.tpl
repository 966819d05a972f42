import { Text } from '@app/platform/http/fields';
import { IsAbsentOr } from '@app/platform/http/validation';
import type { WidgetInput } from '../write/widget.commands';

/** An empty title is refused by the decider (400 naming it); `@Text` refuses control characters. */
export class CreateWidgetDto implements WidgetInput {
  @Text(100)
  title: string;
}

export class UpdateWidgetDto implements WidgetInput {
  @IsAbsentOr()
  @Text(100)
  title?: string;
}
