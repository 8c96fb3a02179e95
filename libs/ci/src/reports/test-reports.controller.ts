import { Controller, Get, Param } from '@nestjs/common';
import { CurrentProject, ProjectAccess, ResourceAccess } from '@app/api';
import { ACCESS_LEVELS } from '@app/namespaces';
import { pipelineIn, readablePipelinesOf } from '../pipelines/pipeline-access';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { presentTestReport, presentTestReportSummary, TestReportsService } from './test-reports.service';

/** `GET /projects/:id/pipelines/:pipeline_id/test_report(_summary)`. */
@Controller()
export class TestReportsController {
  constructor(
    private readonly pipelines: PipelinesRepository,
    private readonly testReports: TestReportsService,
  ) {}

  /** The JUnit reports of the pipeline's latest jobs (and of its child pipelines), suite by job name. */
  @Get('projects/:id/pipelines/:pipeline_id/test_report')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async testReport(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string): Promise<Record<string, unknown>> {
    const pipeline = await pipelineIn(this.pipelines, readablePipelinesOf(access), rawId);
    return presentTestReport(await this.testReports.build(pipeline.id));
  }

  @Get('projects/:id/pipelines/:pipeline_id/test_report_summary')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async testReportSummary(@CurrentProject() access: ResourceAccess, @Param('pipeline_id') rawId: string): Promise<Record<string, unknown>> {
    const pipeline = await pipelineIn(this.pipelines, readablePipelinesOf(access), rawId);
    return presentTestReportSummary(await this.testReports.build(pipeline.id));
  }
}
