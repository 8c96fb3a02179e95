import { Injectable } from '@nestjs/common';
import { SettingsReader } from '@app/settings';

/** `max_import_size` (MB, 0 = unlimited) in bytes. */
@Injectable()
export class ImportLimits {
  constructor(private readonly settings: SettingsReader) {}

  async maxImportBytes(): Promise<number> {
    return (await this.settings.get()).number('max_import_size') * 1024 * 1024;
  }
}
