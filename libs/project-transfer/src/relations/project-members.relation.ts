import { Injectable } from '@nestjs/common';
import { UserEntity } from '@app/identity';
import { MEMBER_ACCESS_LEVELS, MemberEntity, MembersRepository, NAMESPACE_EVENTS, projectMemberEvent } from '@app/namespaces';
import { ILike } from 'typeorm';
import type { NdjsonWriter } from '../archive/ndjson';
import { byId, eachPage } from './export-pages';
import { day, int, InvalidRecord, iso, Row, str } from './record-fields';
import type { RelationExportContext, RelationImportContext, TransferRelation } from './transfer-relation';

/**
 * `project_members`: the project's direct members with their `user` (`email` only when an
 * administrator exports). On import a member's user is matched by public email (any email when
 * the importer is an administrator); the match also maps the archive's user id for the relations
 * after it. Members whose user is not matched are skipped.
 */
@Injectable()
export class ProjectMembersRelation implements TransferRelation {
  readonly name = 'project_members';

  constructor(private readonly members: MembersRepository) {}

  export(ctx: RelationExportContext, writer: NdjsonWriter): Promise<void> {
    const projectId = ctx.project.id;
    return eachPage(ctx.manager, MemberEntity, { sourceType: 'project', sourceId: projectId }, async (members) => {
      const users = await byId(
        ctx.manager,
        UserEntity,
        members.map((m) => m.userId),
      );
      for (const m of members) {
        const user = users.get(m.userId);
        await writer.write({
          id: m.id,
          access_level: m.accessLevel,
          source_id: projectId,
          source_type: 'Project',
          user_id: m.userId,
          notification_level: 3,
          created_at: iso(m.createdAt),
          updated_at: iso(m.updatedAt),
          created_by_id: m.createdById,
          expires_at: m.expiresAt,
          user: user
            ? { id: user.id, public_email: user.publicEmail || null, username: user.username, ...(ctx.exporterIsAdmin && { email: user.email }) }
            : null,
        });
      }
    });
  }

  async import(ctx: RelationImportContext, records: Row[]): Promise<void> {
    const tx = ctx.tx;
    const projectId = ctx.project.id;
    const emailOf = (user: Row): string[] => {
      const emails = [str(user.public_email)];
      if (ctx.importer.isAdmin) emails.push(str(user.email));
      return emails.filter((e): e is string => !!e).map((e) => e.toLowerCase());
    };
    for (const record of records) {
      const user = (record.user ?? {}) as Row;
      const archiveId = int(record.user_id) ?? int(user.id);
      const emails = emailOf(user);
      let found: UserEntity | null = null;
      if (emails.length) {
        if (ctx.importer.isAdmin) found = await tx.findOne(UserEntity, { where: emails.map((email) => ({ email: ILike(email) })) });
        if (!found) found = await tx.findOne(UserEntity, { where: emails.map((email) => ({ publicEmail: ILike(email) })) });
      }
      if (!found) {
        ctx.skip('project_members (no matching user)');
        continue;
      }
      if (archiveId !== null) ctx.matchUser(archiveId, found.id);
      const level = int(record.access_level);
      if (level === null || !MEMBER_ACCESS_LEVELS.includes(level)) throw new InvalidRecord('Validation failed: Access level is not included in the list');
      const existing = await tx.findOneBy(MemberEntity, { sourceType: 'project', sourceId: projectId, userId: found.id });
      if (existing) continue;
      const member = await this.members.insertImported(tx, {
        sourceType: 'project',
        sourceId: projectId,
        userId: found.id,
        accessLevel: level,
        createdById: ctx.importer.id,
        expiresAt: day(record.expires_at),
      });
      ctx.event(projectMemberEvent(NAMESPACE_EVENTS.USER_ADD_TO_TEAM, ctx.importer.id, ctx.project, ctx.project.namespace, member, found));
      ctx.count('project_members');
    }
  }
}
