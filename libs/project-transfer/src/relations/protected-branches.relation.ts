import { Injectable } from '@nestjs/common';
import { NewGrant, ProtectedBranchAccessLevelEntity, ProtectedBranchEntity, ProtectedBranchesRepository } from '@app/repository';
import { In } from 'typeorm';
import type { NdjsonWriter } from '../archive/ndjson';
import { eachPage } from './export-pages';
import { array, bool, int, InvalidRecord, iso, Row, str } from './record-fields';
import type { RelationExportContext, RelationImportContext, TransferRelation } from './transfer-relation';

const ACCESS_LEVEL_KEYS = [
  ['merge_access_levels', 'merge'],
  ['push_access_levels', 'push'],
  ['unprotect_access_levels', 'unprotect'],
] as const;

/** `protected_branches`, with their merge, push and unprotect access levels. Entries for a group, or a user not matched, are skipped. */
@Injectable()
export class ProtectedBranchesRelation implements TransferRelation {
  readonly name = 'protected_branches';

  constructor(private readonly protectedBranches: ProtectedBranchesRepository) {}

  export(ctx: RelationExportContext, writer: NdjsonWriter): Promise<void> {
    const projectId = ctx.project.id;
    return eachPage(ctx.manager, ProtectedBranchEntity, { projectId }, async (branches) => {
      const levels = branches.length
        ? await ctx.manager.find(ProtectedBranchAccessLevelEntity, { where: { protectedBranchId: In(branches.map((b) => b.id)) }, order: { id: 'ASC' } })
        : [];
      for (const b of branches) {
        const of = (action: string) =>
          levels
            .filter((l) => l.protectedBranchId === b.id && l.action === action)
            .map((l) => ({ access_level: l.accessLevel, user_id: l.userId, group_id: l.groupId }));
        await writer.write({
          id: b.id,
          project_id: projectId,
          name: b.name,
          allow_force_push: b.allowForcePush,
          code_owner_approval_required: b.codeOwnerApprovalRequired,
          created_at: iso(b.createdAt),
          updated_at: iso(b.updatedAt),
          merge_access_levels: of('merge'),
          push_access_levels: of('push'),
          unprotect_access_levels: of('unprotect'),
        });
      }
    });
  }

  async import(ctx: RelationImportContext, records: Row[]): Promise<void> {
    for (const record of records) {
      const name = str(record.name, 255);
      if (!name) throw new InvalidRecord("Validation failed: Name can't be blank");
      const grants: NewGrant[] = [];
      for (const [key, action] of ACCESS_LEVEL_KEYS) {
        for (const level of array(record[key])) {
          const userId = level.user_id === null || level.user_id === undefined ? null : ctx.user(level.user_id);
          if (level.user_id !== null && level.user_id !== undefined && userId === null) {
            ctx.skip(`protected_branches.${key} (no matching user)`);
            continue;
          }
          if (level.group_id !== null && level.group_id !== undefined) {
            ctx.skip(`protected_branches.${key} (group)`);
            continue;
          }
          const accessLevel = userId === null ? int(level.access_level) : null;
          if (userId === null && (accessLevel === null || ![0, 30, 40, 60].includes(accessLevel)))
            throw new InvalidRecord('Validation failed: Access level is not included in the list');
          grants.push({ action, accessLevel, userId, groupId: null });
        }
      }
      await this.protectedBranches.insertImported(
        ctx.tx,
        {
          projectId: ctx.project.id,
          name,
          allowForcePush: bool(record.allow_force_push),
          codeOwnerApprovalRequired: bool(record.code_owner_approval_required),
        },
        grants,
      );
      ctx.count('protected_branches');
    }
  }
}
