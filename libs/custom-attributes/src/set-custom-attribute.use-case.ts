import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { CustomAttributeResource, CustomAttributeView } from './custom-attribute-resource';
import { CustomAttributesRepository } from './custom-attributes.repository';
import { customAttributeEvent, CUSTOM_ATTRIBUTE_EVENTS } from './custom-attributes.events';

export interface SetCustomAttributeCommand {
  resource: CustomAttributeResource;
  key: string;
  value: unknown;
  actorId: number;
}

const MAX_LENGTH = 255;

/** `PUT /<resource>/:id/custom_attributes/:key`: creates the attribute or updates its value. */
@Injectable()
export class SetCustomAttributeUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly attributes: CustomAttributesRepository,
  ) {}

  async execute(command: SetCustomAttributeCommand): Promise<CustomAttributeView> {
    if (command.value === undefined || command.value === null) throw DomainError.missing('value');
    if (typeof command.value !== 'string' && typeof command.value !== 'number' && typeof command.value !== 'boolean') {
      throw DomainError.invalid({ value: ['is invalid'] });
    }
    const value = String(command.value);
    const { key } = command;
    const errors: Record<string, string[]> = {};
    if (key.trim() === '') errors.key = ["can't be blank"];
    else if (key.length > MAX_LENGTH) errors.key = [`is too long (maximum is ${MAX_LENGTH} characters)`];
    if (value.trim() === '') errors.value = ["can't be blank"];
    else if (value.length > MAX_LENGTH) errors.value = [`is too long (maximum is ${MAX_LENGTH} characters)`];
    if (Object.keys(errors).length > 0) throw DomainError.invalid(errors);

    return this.dataSource.transaction(async (tx) => {
      const { previous } = await this.attributes.upsert(command.resource.type, command.resource.id, key, value, tx);
      if (previous !== value) {
        const type = previous === null ? CUSTOM_ATTRIBUTE_EVENTS.CREATE : CUSTOM_ATTRIBUTE_EVENTS.UPDATE;
        await this.outbox.append(tx, customAttributeEvent(type, command.actorId, command.resource, { key, value, previous_value: previous }));
      }
      return { key, value };
    });
  }
}
