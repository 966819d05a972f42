import { Public } from '@app/platform/auth/auth.guard';
import { id } from '@app/platform/http/ids.pipe';
import { AcceptsForm } from '@app/platform/http/request-limits';
import { OwnShape } from '@app/platform/openapi/own-shape';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SamlSignInService } from '../write/saml-sign-in.service';
import { SamlResponseDto, SamlStartQueryDto } from './sso.dto';

const samlProviderId = () => Param('samlProviderId', id('samlProviderId'));

/**
 * The service-provider end of SAML sign-in: no bearer token (the caller has none yet); what vouches
 * for the caller is the identity provider's signature on the response it posts back.
 */
@Controller('sso/saml/:samlProviderId')
export class SamlSignInController {
  constructor(
    private readonly service: SamlSignInService,
    private readonly views: ReadYourWrites,
  ) {}

  /** Sends the browser to the identity provider with a sign-in request. */
  @Public()
  @OwnShape("A 302 to the provider's `ssoURL` with a `SAMLRequest` and the `relayState` given")
  @Get('start')
  async startSamlSignIn(
    @samlProviderId() provider: string,
    @Query() query: SamlStartQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { url } = await this.service.start(provider, query.relayState ?? '');
    reply.header('cache-control', 'no-store').redirect(url, 302);
  }

  @Public()
  @OwnShape("This service provider's SAML metadata (XML): its entity id and assertion consumer service")
  @Get('metadata')
  async getSamlServiceProviderMetadata(
    @samlProviderId() provider: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { xml } = await this.service.metadata(provider);
    reply.header('content-type', 'application/samlmetadata+xml; charset=utf-8').send(xml);
  }

  /**
   * The assertion consumer service: answers the member's API token once the views know it, so the
   * token works on the next request; `relayState` is what the start was given.
   */
  @Public()
  @OwnShape(
    "`{object: 'sso-session', token, expiresAt, user, organization, relayState}`: an API token for the member signed in, which expires (SSO_SESSION_HOURS)",
  )
  @Post('acs')
  @AcceptsForm()
  @HttpCode(200)
  async consumeSamlResponse(
    @samlProviderId() provider: string,
    @Body() body: SamlResponseDto,
    @Req() request: FastifyRequest,
  ) {
    const session = await this.views.wait(this.service.signIn(provider, body.SAMLResponse, request.id));
    return {
      object: 'sso-session' as const,
      token: session.token,
      expiresAt: session.expiresAt,
      user: session.userId,
      organization: session.organizationId,
      relayState: body.RelayState ?? null,
    };
  }
}
