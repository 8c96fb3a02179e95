import { Transform } from 'class-transformer';

/** An id or a path: numbers become strings. */
export const ToRefString = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? String(value) : value));
