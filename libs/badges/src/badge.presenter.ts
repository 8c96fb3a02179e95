import { BadgeRenderContext, renderBadgeUrl } from './core/badge-urls';
import type { BadgeEntity } from './entities/badge.entity';

export interface BadgeView {
  id: number;
  name: string | null;
  link_url: string;
  image_url: string;
  rendered_link_url: string;
  rendered_image_url: string;
  kind: 'project' | 'group';
}

export interface RenderedBadgeView {
  link_url: string;
  image_url: string;
  rendered_link_url: string;
  rendered_image_url: string;
}

/** A badge as the API shows it; `context` is the project it is seen from (null from a group). */
export function presentBadge(badge: BadgeEntity, context: BadgeRenderContext | null): BadgeView {
  return {
    id: badge.id,
    name: badge.name,
    link_url: badge.linkUrl,
    image_url: badge.imageUrl,
    rendered_link_url: renderBadgeUrl(badge.linkUrl, context),
    rendered_image_url: renderBadgeUrl(badge.imageUrl, context),
    kind: badge.kind,
  };
}

/** `GET …/badges/render`. */
export function presentRendered(linkUrl: string, imageUrl: string, context: BadgeRenderContext | null): RenderedBadgeView {
  return { link_url: linkUrl, image_url: imageUrl, rendered_link_url: renderBadgeUrl(linkUrl, context), rendered_image_url: renderBadgeUrl(imageUrl, context) };
}
