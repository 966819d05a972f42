import { hashSecret, newId, newSecretToken } from '@app/platform/domain/ids';
import type { CommandContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { userAggregate } from '../domain/user.aggregate';
import { type UserCommand } from '../domain/user.decider';

/** Creating users and issuing tokens: used by bootstrap and the CLI. */
@Injectable()
export class IdentityService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
  ) {}

  async createUser(input: { displayName: string; email: string }, ctx: CommandContext) {
    const userId = newId();
    const result = await this.bus.execute(
      userAggregate.message(userId, { type: 'CreateUser', userId, ...input, at: this.runner.now() }, ctx),
    );
    return { userId, position: result.position };
  }

  /** Issues a token (one that expires when `expiresAt`, ms, is given); its value is returned once and only its hash is stored. */
  async issueToken(
    userId: string,
    label: string,
    ctx: CommandContext,
    value = newSecretToken(),
    expiresAt?: number,
  ) {
    const tokenId = newId();
    const command: UserCommand = {
      type: 'IssueApiToken',
      tokenId,
      tokenHash: hashSecret(value),
      label,
      at: this.runner.now(),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
    const result = await this.bus.execute(userAggregate.message(userId, command, ctx));
    return { tokenId, token: value, position: result.position };
  }

  async revokeToken(userId: string, tokenId: string, ctx: CommandContext) {
    return this.bus.execute(
      userAggregate.message(userId, { type: 'RevokeApiToken', tokenId, at: this.runner.now() }, ctx),
    );
  }
}
