import { IsAbsentOr } from '@app/platform/http/validation';
import { IsString, MaxLength } from 'class-validator';
import type { CreateWidgetInput, UpdateWidgetInput } from '../write/widget.commands';

/** An empty title is refused by the decider (400 naming it). */
export class CreateWidgetDto implements CreateWidgetInput {
  @IsString()
  @MaxLength(100)
  title: string;
}

export class UpdateWidgetDto implements UpdateWidgetInput {
  @IsAbsentOr()
  @IsString()
  @MaxLength(100)
  title?: string;
}
