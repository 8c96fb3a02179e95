import type { Provider } from '@nestjs/common';
import { RELATIONS } from '../archive/archive-format';
import { CiPipelinesRelation } from './ci-pipelines.relation';
import { IssuableRecords } from './issuable';
import { IssuesRelation } from './issues.relation';
import { LabelsRelation } from './labels.relation';
import { MergeRequestsRelation } from './merge-requests.relation';
import { MilestonesRelation } from './milestones.relation';
import { NestedNotes } from './notes.nested';
import { ProjectBadgesRelation } from './project-badges.relation';
import { ProjectMembersRelation } from './project-members.relation';
import { ProtectedBranchesRelation } from './protected-branches.relation';
import { SnippetsRelation } from './snippets.relation';
import { TRANSFER_RELATIONS, type TransferRelation } from './transfer-relation';

export * from './transfer-relation';

/** One class per relation file of the archive. */
const RELATION_CLASSES = [ProjectMembersRelation, LabelsRelation, MilestonesRelation, IssuesRelation, MergeRequestsRelation, ProtectedBranchesRelation, ProjectBadgesRelation, SnippetsRelation, CiPipelinesRelation];

/** In `RELATIONS` order (the order an import needs them); a relation missing or doubled fails at boot. */
export function orderedRelations(relations: TransferRelation[]): TransferRelation[] {
  const ordered = RELATIONS.map((name) => {
    const found = relations.filter((relation) => relation.name === name);
    if (found.length !== 1) throw new Error(`Project transfer: ${found.length} handlers for the relation ${name}`);
    return found[0];
  });
  if (ordered.length !== relations.length) throw new Error(`Project transfer: handlers for relations not in RELATIONS: ${relations.filter((r) => !ordered.includes(r)).map((r) => r.name).join(', ')}`);
  return ordered;
}

/** The providers of the relations and of `TRANSFER_RELATIONS`. */
export const RELATION_PROVIDERS: Provider[] = [
  NestedNotes,
  IssuableRecords,
  ...RELATION_CLASSES,
  { provide: TRANSFER_RELATIONS, useFactory: (...relations: TransferRelation[]) => orderedRelations(relations), inject: RELATION_CLASSES },
];
