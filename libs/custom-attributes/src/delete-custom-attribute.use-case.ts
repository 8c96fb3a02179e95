import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { CustomAttributeResource } from './custom-attribute-resource';
import { CustomAttributesRepository } from './custom-attributes.repository';
import { customAttributeEvent, CUSTOM_ATTRIBUTE_EVENTS } from './custom-attributes.events';

export interface DeleteCustomAttributeCommand {
  resource: CustomAttributeResource;
  key: string;
  actorId: number;
}

/** `DELETE /<resource>/:id/custom_attributes/:key`: 404 when the resource has no such attribute. */
@Injectable()
export class DeleteCustomAttributeUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly attributes: CustomAttributesRepository,
  ) {}

  async execute(command: DeleteCustomAttributeCommand): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const removed = await this.attributes.delete(command.resource.type, command.resource.id, command.key, tx);
      if (!removed) throw DomainError.notFound('Custom Attribute');
      await this.outbox.append(
        tx,
        customAttributeEvent(CUSTOM_ATTRIBUTE_EVENTS.DESTROY, command.actorId, command.resource, { key: removed.key, value: removed.value }),
      );
    });
  }
}
