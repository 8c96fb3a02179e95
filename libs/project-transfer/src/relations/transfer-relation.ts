import type { UserEntity } from '@app/identity';
import type { NewDomainEvent } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import type { EntityManager } from 'typeorm';
import { RELATIONS, type RelationName } from '../archive/archive-format';
import type { NdjsonWriter } from '../archive/ndjson';
import type { Row } from './record-fields';

/** What a relation's export reads with: the project and the manager of the export's one read-only REPEATABLE READ transaction. */
export interface RelationExportContext {
  readonly project: ProjectWithNamespace;
  readonly manager: EntityManager;
  /** Members carry their user's `email` only when an administrator exports. */
  readonly exporterIsAdmin: boolean;
}

/**
 * What a relation's import writes with: the import's ONE transaction, the state the relations
 * share (users matched by `project_members`, labels and milestones by title, highest iids) and the
 * run's tallies. `ImportRun` implements it; it holds the savepoints and the failed relations.
 */
export interface RelationImportContext {
  readonly tx: EntityManager;
  readonly project: ProjectWithNamespace;
  readonly importer: UserEntity;
  /** Label title → id here. */
  readonly labels: Map<string, number>;
  /** Milestone title → id here (GitLab's records nest the milestone by value). */
  readonly milestones: Map<string, number>;
  /** Remembers that the archive's user `archiveId` is `userId` here. */
  matchUser(archiveId: number, userId: number): void;
  /** The user here of an archive user id; null when not matched. */
  user(archiveId: unknown): number | null;
  /** The user here of an archive user id; the importer when not matched. */
  author(archiveId: unknown): number;
  /** The highest iid taken per `internal_ids` usage (the counters are moved past it at the end). */
  track(usage: string, iid: number): void;
  lastIid(usage: string): number;
  count(name: string, n?: number): void;
  /** Counts records the archive holds that this service does not take. */
  skip(name: string, n?: number): void;
  /** A domain event written with the import's outcome. */
  event(event: NewDomainEvent): void;
}

/**
 * One relation of GitLab's export format (`tree/project/<name>.ndjson`), both directions side by
 * side: what a record holds when written is what is read back. Writes go through the owning lib's
 * repository; the exporter and `ImportRun` only iterate the relations (`TRANSFER_RELATIONS`, in
 * `RELATIONS` order).
 */
export interface TransferRelation {
  readonly name: RelationName;
  /** Writes the project's records, one line each, reading page by page. */
  export(ctx: RelationExportContext, writer: NdjsonWriter): Promise<void>;
  /** Takes a batch of records inside the caller's savepoint; throws to refuse the batch (the caller then retries record by record). */
  import(ctx: RelationImportContext, records: Row[]): Promise<void>;
}

/** Injection token of the relations, in `RELATIONS` order. */
export const TRANSFER_RELATIONS = Symbol('TRANSFER_RELATIONS');

/** Records inserted per statement. */
export const IMPORT_BATCH = 200;

/** In `RELATIONS` order (the order an import needs them); a relation missing or doubled fails at boot. */
export function orderedRelations(relations: TransferRelation[]): TransferRelation[] {
  const ordered = RELATIONS.map((name) => {
    const found = relations.filter((relation) => relation.name === name);
    if (found.length !== 1) throw new Error(`Project transfer: ${found.length} handlers for the relation ${name}`);
    return found[0];
  });
  if (ordered.length !== relations.length)
    throw new Error(
      `Project transfer: handlers for relations not in RELATIONS: ${relations
        .filter((r) => !ordered.includes(r))
        .map((r) => r.name)
        .join(', ')}`,
    );
  return ordered;
}
