import { Injectable } from '@nestjs/common';
import { BadgeEntity, BadgesRepository } from '@app/badges';
import type { NdjsonWriter } from '../archive/ndjson';
import { eachPage } from './export-pages';
import { InvalidRecord, iso, Row, str } from './record-fields';
import type { RelationExportContext, RelationImportContext, TransferRelation } from './transfer-relation';

/** `project_badges`: the project's own badges (not its groups'). */
@Injectable()
export class ProjectBadgesRelation implements TransferRelation {
  readonly name = 'project_badges';

  constructor(private readonly badges: BadgesRepository) {}

  export(ctx: RelationExportContext, writer: NdjsonWriter): Promise<void> {
    const projectId = ctx.project.id;
    return eachPage(ctx.manager, BadgeEntity, { projectId }, async (badges) => {
      for (const b of badges)
        await writer.write({
          id: b.id,
          link_url: b.linkUrl,
          image_url: b.imageUrl,
          project_id: projectId,
          group_id: null,
          created_at: iso(b.createdAt),
          updated_at: iso(b.updatedAt),
          type: 'ProjectBadge',
          name: b.name,
        });
    });
  }

  async import(ctx: RelationImportContext, records: Row[]): Promise<void> {
    const rows = records.map((record) => {
      const linkUrl = str(record.link_url, 2048);
      const imageUrl = str(record.image_url, 2048);
      if (!linkUrl || !imageUrl) throw new InvalidRecord("Validation failed: Link url can't be blank");
      return { kind: 'project' as const, projectId: ctx.project.id, groupId: null, name: str(record.name, 255), linkUrl, imageUrl };
    });
    await this.badges.insertImported(ctx.tx, rows);
    ctx.count('project_badges', rows.length);
  }
}
