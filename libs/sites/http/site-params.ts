import { id } from '@app/platform/http/ids.pipe';
import { Param } from '@nestjs/common';

/** The path parameters of the sites' routes, each checked as an id. */
export const organizationId = () => Param('organizationId', id('organizationId'));
export const siteId = () => Param('siteId', id('siteId'));
export const siteSpaceId = () => Param('siteSpaceId', id('siteSpaceId'));
export const sectionId = () => Param('siteSectionId', id('siteSectionId'));
export const groupId = () => Param('siteSectionGroupId', id('siteSectionGroupId'));
export const shareLinkId = () => Param('shareLinkId', id('shareLinkId'));
