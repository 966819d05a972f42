import { IsAbsentOr } from '@app/platform/http/validation';
import { IsString, MaxLength, MinLength } from 'class-validator';
import type { CreateWidgetInput, UpdateWidgetInput } from '../write/widget.commands';

export class CreateWidgetDto implements CreateWidgetInput {
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  title: string;
}

export class UpdateWidgetDto implements UpdateWidgetInput {
  @IsAbsentOr()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  title?: string;
}
