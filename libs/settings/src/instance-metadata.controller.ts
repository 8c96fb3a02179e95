import { Controller, Get } from '@nestjs/common';
import { Auth } from '@app/api';
import { AppConfig, serviceVersion } from '@app/config';

/**
 * `GET /metadata` and `GET /version` as GitLab answers them (clients use them to detect the
 * server), with this service's own version and revision. Any authenticated caller with `api`,
 * `read_api` or `read_user`; anonymous callers get 401, as in GitLab. No Kubernetes agent
 * server exists here: `kas.enabled` is false and its URLs and version null. `enterprise` is
 * true above the `free` tier (the PREMIUM/ULTIMATE endpoints are served).
 */
@Controller()
@Auth({ scopes: ['api', 'read_api', 'read_user'] })
export class InstanceMetadataController {
  constructor(private readonly config: AppConfig) {}

  @Get('metadata')
  metadata(): Record<string, unknown> {
    const { version, revision } = serviceVersion();
    return {
      version,
      revision,
      kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
      enterprise: this.config.tier !== 'free',
    };
  }

  /** The mirror of `/metadata` (GitLab documents both). */
  @Get('version')
  version(): Record<string, unknown> {
    return this.metadata();
  }
}
