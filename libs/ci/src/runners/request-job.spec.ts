import type { CiJobEntity } from '../entities/ci-job.entity';
import type { DependencySource } from '../jobs/jobs.repository';
import { dependenciesOf } from './request-job.use-case';

const source = (id: number, name: string, stageIdx: number, archive: string | null = null, type = 'build'): DependencySource => ({
  id,
  name,
  type,
  stage_idx: stageIdx,
  filename: archive,
  size: archive ? '12' : null,
});
const job = (over: Partial<Pick<CiJobEntity, 'options' | 'needs' | 'stageIdx'>>) =>
  ({ options: {}, needs: null, stageIdx: 2, ...over }) as Pick<CiJobEntity, 'options' | 'needs' | 'stageIdx'>;

describe('dependenciesOf', () => {
  // The claim reads the jobs of the job's stage and earlier ones, by id, a row per archive (none: one row).
  const sources = [
    source(1, 'build', 0, 'a.zip'),
    source(2, 'lint', 0),
    source(3, 'bridge', 1, null, 'bridge'),
    source(4, 'unit', 1, 'u.zip'),
    source(5, 'same-stage', 2, 's.zip'),
  ];

  it('takes every build of the earlier stages without dependencies or needs', () => {
    expect(dependenciesOf(job({}), sources)).toEqual([
      { id: 1, name: 'build', artifactsFile: { filename: 'a.zip', size: 12 } },
      { id: 2, name: 'lint', artifactsFile: null },
      { id: 4, name: 'unit', artifactsFile: { filename: 'u.zip', size: 12 } },
    ]);
  });

  it('takes only what dependencies name, even when needs are given', () => {
    expect(dependenciesOf(job({ options: { dependencies: ['unit'] }, needs: ['build', 'unit'] }), sources).map((d) => d.name)).toEqual(['unit']);
    expect(dependenciesOf(job({ options: { dependencies: [] } }), sources)).toEqual([]);
  });

  it('takes the needs with artifacts, of the same stage too', () => {
    expect(dependenciesOf(job({ needs: ['build', 'same-stage', 'unit'], options: { needsWithoutArtifacts: ['unit'] } }), sources).map((d) => d.name)).toEqual([
      'build',
      'same-stage',
    ]);
    expect(dependenciesOf(job({ needs: [] }), sources)).toEqual([]);
  });

  it('lists a job once when it has several rows', () => {
    expect(dependenciesOf(job({}), [source(1, 'build', 0, 'a.zip'), source(1, 'build', 0, 'b.zip')])).toEqual([
      { id: 1, name: 'build', artifactsFile: { filename: 'a.zip', size: 12 } },
    ]);
  });
});
