import { Injectable } from '@nestjs/common';
import { ValidateBy, ValidationOptions } from 'class-validator';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { CUSTOM_ATTRIBUTE_TABLES, CustomAttributeResourceType } from './custom-attribute-resource';
import { CustomAttributesRepository } from './custom-attributes.repository';

/** Who asks: only administrators filter by, or see, custom attributes (GitLab's `read_custom_attribute`). */
export interface CustomAttributesViewer {
  isAdmin: boolean;
}

const isStringMap = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');

/** `custom_attributes[key]=value` list parameter: a hash of strings. */
export const IsCustomAttributesFilter = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy({ name: 'isCustomAttributesFilter', validator: { validate: isStringMap, defaultMessage: () => 'is invalid' } }, options);

/**
 * The list parameters of `GET /projects`, `/users` and `/groups`: `custom_attributes[key]=value`
 * (every pair must match) and `with_custom_attributes=true` (adds `custom_attributes: [{key, value}]`
 * to each item). Both are for administrators; for anybody else they are ignored, as in GitLab.
 */
@Injectable()
export class CustomAttributeFilters {
  constructor(private readonly attributes: CustomAttributesRepository) {}

  /** Narrows `qb` (whose `alias` is the resource table) to the resources having every attribute of `filter`. */
  filter<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    type: CustomAttributeResourceType,
    alias: string,
    filter: Record<string, string> | undefined,
    viewer: CustomAttributesViewer | null,
  ): SelectQueryBuilder<T> {
    if (!viewer?.isAdmin || !isStringMap(filter)) return qb;
    const { table, column } = CUSTOM_ATTRIBUTE_TABLES[type];
    Object.entries(filter).forEach(([key, value], index) => {
      qb.andWhere(
        `EXISTS (SELECT 1 FROM ${table} ca${index} WHERE ca${index}.${column} = ${alias}.id AND ca${index}.key = :caKey${index} AND ca${index}.value = :caValue${index})`,
        {
          [`caKey${index}`]: key,
          [`caValue${index}`]: value,
        },
      );
    });
    return qb;
  }

  /** Adds `custom_attributes` to each presented item (matched by its `id`) when asked by an administrator. */
  async attach<T extends Record<string, unknown>>(
    type: CustomAttributeResourceType,
    items: T[],
    viewer: CustomAttributesViewer | null,
    requested: boolean | undefined,
  ): Promise<T[]> {
    if (!requested || !viewer?.isAdmin) return items;
    const byResource = await this.attributes.forResources(
      type,
      items.map((item) => Number(item.id)),
    );
    for (const item of items) Object.assign(item, { custom_attributes: byResource.get(Number(item.id)) ?? [] });
    return items;
  }
}
