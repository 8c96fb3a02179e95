import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A JUnit report file of a job. */
export interface JunitReportFile {
  job_id: number;
  name: string;
  storage_key: string;
  file_format: string;
}

@Injectable()
export class TestReportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The unexpired JUnit artifacts of the latest (not retried, not erased) jobs of the pipeline and
   * of its child pipelines at any depth, by job name then id.
   */
  async junitFiles(pipelineId: number): Promise<JunitReportFile[]> {
    return (await this.dataSource.query(
      `WITH RECURSIVE tree AS (SELECT id FROM ci_pipelines WHERE id = $1 UNION ALL SELECT c.id FROM ci_pipelines c JOIN tree t ON c.parent_pipeline_id = t.id)
       SELECT j.id AS job_id, j.name, a.storage_key, a.file_format FROM ci_jobs j JOIN ci_job_artifacts a ON a.job_id = j.id
       WHERE j.pipeline_id IN (SELECT id FROM tree) AND j.retried = false AND j.erased_at IS NULL AND a.file_type = 'junit' AND (a.expire_at IS NULL OR a.expire_at > now())
       ORDER BY j.name, j.id`,
      [pipelineId],
    )) as JunitReportFile[];
  }
}
