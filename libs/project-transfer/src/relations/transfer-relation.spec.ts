import { RELATIONS } from '../archive/archive-format';
import { orderedRelations, type TransferRelation } from './transfer-relation';

const relation = (name: string): TransferRelation =>
  ({ name, export: () => Promise.resolve(), import: () => Promise.resolve() }) as unknown as TransferRelation;

describe(orderedRelations.name, () => {
  it('puts the relations in RELATIONS order, whatever order they are given in', () => {
    const given = [...RELATIONS].reverse().map(relation);
    expect(orderedRelations(given).map((r) => r.name)).toEqual([...RELATIONS]);
  });

  it('refuses a relation without handler, one with two, and a handler of a relation the archive format does not list', () => {
    expect(() => orderedRelations(RELATIONS.slice(1).map(relation))).toThrow('0 handlers for the relation project_members');
    expect(() => orderedRelations([...RELATIONS, 'labels'].map(relation))).toThrow('2 handlers for the relation labels');
    expect(() => orderedRelations([...RELATIONS, 'epics'].map(relation))).toThrow('handlers for relations not in RELATIONS: epics');
  });
});
