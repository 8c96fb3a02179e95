import type { AppConfig } from '@app/config';
import { InstanceMetadataController } from './instance-metadata.controller';

describe(InstanceMetadataController.name, () => {
  const sut = (tier: AppConfig['tier']) => new InstanceMetadataController({ tier } as AppConfig);

  it('answers enterprise above the free tier only', () => {
    expect(sut('free').metadata()).toMatchObject({ enterprise: false });
    expect(sut('premium').metadata()).toMatchObject({ enterprise: true });
    expect(sut('ultimate').version()).toMatchObject({ enterprise: true });
  });

  it('reports no Kubernetes agent server', () => {
    expect(sut('ultimate').metadata()).toMatchObject({ kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null } });
  });
});
