import type { Provider } from '@nestjs/common';
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
import { orderedRelations, TRANSFER_RELATIONS, type TransferRelation } from './transfer-relation';

export * from './transfer-relation';

/** One class per relation file of the archive. */
const RELATION_CLASSES = [
  ProjectMembersRelation,
  LabelsRelation,
  MilestonesRelation,
  IssuesRelation,
  MergeRequestsRelation,
  ProtectedBranchesRelation,
  ProjectBadgesRelation,
  SnippetsRelation,
  CiPipelinesRelation,
];

/** The providers of the relations and of `TRANSFER_RELATIONS`. */
export const RELATION_PROVIDERS: Provider[] = [
  NestedNotes,
  IssuableRecords,
  ...RELATION_CLASSES,
  { provide: TRANSFER_RELATIONS, useFactory: (...relations: TransferRelation[]) => orderedRelations(relations), inject: RELATION_CLASSES },
];
