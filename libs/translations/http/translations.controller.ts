import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { IfMatch } from '@app/platform/http/etag';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { OwnShape } from '@app/platform/openapi/own-shape';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { TranslationQueries } from '../read/translations.queries';
import { TranslationService } from '../write/translation.commands';
import { CreateTranslationDto, UpdateTranslationDto } from './translations.dto';

/** The seeds' translation settings, not GitBook's `Translation` (source space, language, instructions). */
const SETTINGS =
  'Translation settings: `{object: translation-settings, id, title, languages, createdAt, updatedAt, permissions: {view, edit}, urls: {location}}`';

const organizationId = () => Param('organizationId', id('organizationId'));
const translationId = () => Param('translationId', id('translationId'));

@Controller('orgs/:organizationId/translations')
export class TranslationsController {
  constructor(
    private readonly service: TranslationService,
    private readonly queries: TranslationQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @Get()
  @OwnShape(`A list (\`{items, next?, count?}\`) of ${SETTINGS}`, 'TranslationSettingsList')
  list(@organizationId() org: string, @Query() query: ListQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.list(org, query, viewer);
  }

  @RequiresRole('admin')
  @Post()
  @HttpCode(201)
  @OwnShape(SETTINGS, 'TranslationSettings')
  create(@organizationId() org: string, @Body() body: CreateTranslationDto, @CurrentViewer() viewer: Viewer) {
    const write = this.service.create(org, body, viewer);
    return this.views.after(write, (w) => this.queries.get(org, w.translationId, viewer));
  }

  @RequiresRole('read')
  @Get(':translationId')
  @OwnShape(SETTINGS, 'TranslationSettings')
  get(@organizationId() org: string, @translationId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(org, id, viewer);
  }

  @RequiresRole('admin')
  @Put(':translationId')
  @OwnShape(SETTINGS, 'TranslationSettings')
  update(
    @organizationId() org: string,
    @translationId() id: string,
    @Body() body: UpdateTranslationDto,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ) {
    const write = this.service.update(org, id, body, viewer, ifMatch);
    return this.views.after(write, () => this.queries.get(org, id, viewer));
  }

  @RequiresRole('admin')
  @Delete(':translationId')
  @HttpCode(205)
  async delete(
    @organizationId() org: string,
    @translationId() id: string,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ): Promise<void> {
    await this.views.wait(this.service.delete(org, id, viewer, ifMatch));
  }
}
