/** The resources that carry custom attributes. */
export type CustomAttributeResourceType = 'user' | 'group' | 'project';

export interface CustomAttributeResource {
  type: CustomAttributeResourceType;
  id: number;
  /** Shown in domain events (username, group or project full path). */
  title: string;
}

/** Where each resource type keeps its attributes. */
export const CUSTOM_ATTRIBUTE_TABLES = {
  user: { table: 'user_custom_attributes', column: 'user_id', property: 'userId' },
  group: { table: 'group_custom_attributes', column: 'group_id', property: 'groupId' },
  project: { table: 'project_custom_attributes', column: 'project_id', property: 'projectId' },
} as const;

export interface CustomAttributeView {
  key: string;
  value: string;
}
