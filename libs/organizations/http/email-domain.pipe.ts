import { BadRequestException, type PipeTransform } from '@nestjs/common';
import { isEmailDomain } from '../domain/organization.decider';

/** An email domain in a path: a domain name, compared in lower case; anything else is a 400 naming it. */
export class EmailDomainPipe implements PipeTransform<string, string> {
  constructor(private readonly name: string) {}
  transform(value: string): string {
    if (typeof value !== 'string' || !isEmailDomain(value)) {
      throw new BadRequestException(`${this.name}: must be a domain name such as example.com`);
    }
    return value.toLowerCase();
  }
}
