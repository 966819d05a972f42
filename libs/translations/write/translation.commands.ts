import type { Viewer } from '@app/platform/auth/access';
import { newId } from '@app/platform/domain/ids';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { translationAggregate } from '../domain/translation.aggregate';
import { type TranslationCommand, type TranslationInput } from '../domain/translation.decider';
import { translationIn } from '../read/translations.queries';

export type { TranslationInput };

/** Translation settings writes; the route checked the caller administers the organization. */
@Injectable()
export class TranslationService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private run(translationId: string, command: TranslationCommand, viewer: Viewer, ifMatch?: number) {
    return this.bus.execute(
      translationAggregate.message(translationId, command, { ...apiContext(viewer), ifMatch }),
    );
  }

  @Remote(arg.id('organization'), arg.object<TranslationInput>('body'), arg.viewer())
  async create(organization: string, body: TranslationInput, viewer: Viewer) {
    const translationId = newId();
    const command: TranslationCommand = {
      type: 'CreateTranslationSettings',
      translationId,
      organization,
      input: {
        title: body.title,
        languages: body.languages ?? [],
        ...(body.language !== undefined ? { language: body.language } : {}),
      },
      at: this.runner.now(),
    };
    return { translationId, ...(await this.run(translationId, command, viewer)) };
  }

  @Remote(
    arg.id('organization'),
    arg.id('translationId'),
    arg.object<TranslationInput>('body'),
    arg.viewer(),
    arg.optional(arg.int('ifMatch')),
  )
  async update(
    organization: string,
    translationId: string,
    body: TranslationInput,
    viewer: Viewer,
    ifMatch?: number,
  ) {
    await translationIn(this.views, organization, translationId);
    const command: TranslationCommand = {
      type: 'UpdateTranslationSettings',
      organization,
      input: { title: body.title, ...(body.languages !== undefined ? { languages: body.languages } : {}) },
      at: this.runner.now(),
    };
    return this.run(translationId, command, viewer, ifMatch);
  }

  @Remote(arg.id('organization'), arg.id('translationId'), arg.viewer(), arg.optional(arg.int('ifMatch')))
  async delete(organization: string, translationId: string, viewer: Viewer, ifMatch?: number) {
    await translationIn(this.views, organization, translationId);
    const command: TranslationCommand = {
      type: 'DeleteTranslationSettings',
      organization,
      at: this.runner.now(),
    };
    return this.run(translationId, command, viewer, ifMatch);
  }
}
