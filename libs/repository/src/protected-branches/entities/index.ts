import { ProtectedBranchAccessLevelEntity } from './protected-branch-access-level.entity';
import { ProtectedBranchEntity } from './protected-branch.entity';

export { ProtectedBranchAccessLevelEntity, ProtectedBranchEntity };

/** The entities of protected branches, listed in the data source's `ENTITIES`. */
export const PROTECTED_BRANCH_ENTITIES = [ProtectedBranchEntity, ProtectedBranchAccessLevelEntity];
