import { Text } from '@app/platform/http/fields';
import { IsAbsentOr } from '@app/platform/http/validation';
import type { CreateWidgetInput, UpdateWidgetInput } from '../write/widget.commands';

/** An empty title is refused by the decider (400 naming it); `@Text` refuses control characters. */
export class CreateWidgetDto implements CreateWidgetInput {
  @Text(100)
  title: string;
}

export class UpdateWidgetDto implements UpdateWidgetInput {
  @IsAbsentOr()
  @Text(100)
  title?: string;
}
