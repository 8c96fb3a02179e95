// Every migration, in order. Generated with `npm run migration:generate -- libs/database/src/migrations/<Name>`
// against a database migrated to the previous one, then reviewed. Never edit a migration that has landed on main.
import { Initial1795344358118 } from './1795344358118-Initial';
import { IssuesAndEvents1795347982722 } from './1795347982722-IssuesAndEvents';
import { Alerting1795348067234 } from './1795348067234-Alerting';
import { SettingsAndCustomAttributes1795348164924 } from './1795348164924-SettingsAndCustomAttributes';
import { AlertLifecycle1795349951956 } from './1795349951956-AlertLifecycle';
import { EventsProjectListIndex1795350203033 } from './1795350203033-EventsProjectListIndex';
import { SystemHooks1795351881331 } from './1795351881331-SystemHooks';
import { HookDeliveries1795353441266 } from './1795353441266-HookDeliveries';
import { ProjectListsStarsArchive1795353519689 } from './1795353519689-ProjectListsStarsArchive';
import { ProtectedBranchesAndBadges1795353724702 } from './1795353724702-ProtectedBranchesAndBadges';
import { Repositories1795353884729 } from './1795353884729-Repositories';
import { AlertStateEvents1795355077320 } from './1795355077320-AlertStateEvents';
import { EventPositions1795362000000 } from './1795362000000-EventPositions';
import { HookFanOut1795370000000 } from './1795370000000-HookFanOut';
import { ProjectRunnersToken1795370500000 } from './1795370500000-ProjectRunnersToken';
import { NotesSnippetsEpics1795371600000 } from './1795371600000-NotesSnippetsEpics';
import { CiPipelines1795566018863 } from './1795566018863-CiPipelines';
import { HookResends1795580000000 } from './1795580000000-HookResends';
import { EventsTargetIndex1795600000000 } from './1795600000000-EventsTargetIndex';
import { NoteDiscussions1795600100000 } from './1795600100000-NoteDiscussions';
import { CiPipelineVariablesEncrypted1795610000000 } from './1795610000000-CiPipelineVariablesEncrypted';
import { CiDelayedJobs1795617000000 } from './1795617000000-CiDelayedJobs';
import { PrometheusIntegrations1795620000000 } from './1795620000000-PrometheusIntegrations';
import { Approvals1795630000000 } from './1795630000000-Approvals';
import { Vulnerabilities1795640000000 } from './1795640000000-Vulnerabilities';
import { ProjectTransfer1795650000000 } from './1795650000000-ProjectTransfer';
import { CiJobsProcessed1795660000000 } from './1795660000000-CiJobsProcessed';
import { CiProtectedRefs1795670000000 } from './1795670000000-CiProtectedRefs';
import { ProjectImportAttempts1795675000000 } from './1795675000000-ProjectImportAttempts';
import { UserLockout1795683000000 } from './1795683000000-UserLockout';
import { MergeRequestDiffRefs1795690000000 } from './1795690000000-MergeRequestDiffRefs';

export const MIGRATIONS: Function[] = [
  Initial1795344358118,
  IssuesAndEvents1795347982722,
  Alerting1795348067234,
  SettingsAndCustomAttributes1795348164924,
  AlertLifecycle1795349951956,
  EventsProjectListIndex1795350203033,
  SystemHooks1795351881331,
  HookDeliveries1795353441266,
  ProjectListsStarsArchive1795353519689,
  ProtectedBranchesAndBadges1795353724702,
  Repositories1795353884729,
  AlertStateEvents1795355077320,
  EventPositions1795362000000,
  HookFanOut1795370000000,
  ProjectRunnersToken1795370500000,
  NotesSnippetsEpics1795371600000,
  CiPipelines1795566018863,
  HookResends1795580000000,
  EventsTargetIndex1795600000000,
  NoteDiscussions1795600100000,
  CiPipelineVariablesEncrypted1795610000000,
  CiDelayedJobs1795617000000,
  PrometheusIntegrations1795620000000,
  Approvals1795630000000,
  Vulnerabilities1795640000000,
  ProjectTransfer1795650000000,
  CiJobsProcessed1795660000000,
  CiProtectedRefs1795670000000,
  ProjectImportAttempts1795675000000,
  UserLockout1795683000000,
  MergeRequestDiffRefs1795690000000,
];
