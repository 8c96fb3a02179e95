import { Type, type TObject, type TSchema } from '@sinclair/typebox';

/** One event type of the catalogue: what it means, and the JSON schema of its `data` (TypeBox: also its TypeScript type). */
export interface EventDefinition<TData extends TSchema = TSchema> {
  description: string;
  data: TData;
}

/** One library's part of the catalogue: event type (the wire string, never renamed) → definition. */
export type EventPart = Readonly<Record<string, EventDefinition>>;

/** Declares a part; keeps the literal types of its keys and schemas. */
export const defineEvents = <const TPart extends EventPart>(part: TPart): TPart => part;

/** An object schema that documents the fields it lists and admits others (events grow by adding fields). */
export const Data = <TProperties extends Parameters<typeof Type.Object>[0]>(properties: TProperties, description?: string): TObject<TProperties> =>
  Type.Object(properties, { additionalProperties: true, ...(description ? { description } : {}) });

export const Id = Type.Integer({ minimum: 0 });
export const NullableId = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]);
export const NullableString = Type.Union([Type.String(), Type.Null()]);
/** An ISO-8601 date-time. */
export const DateTime = Type.String({ format: 'date-time' });
/** A JSON object the schema does not detail. */
export const AnyObject = Type.Record(Type.String(), Type.Unknown());
/** `{previous, current}` of changed attributes, by attribute name. */
export const Changes = Type.Record(Type.String(), Type.Object({ previous: Type.Unknown(), current: Type.Unknown() }), {
  description: '`{previous, current}` of each changed attribute',
});
