import type { EntityClass, EntityMetadata } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { LeanSelection } from './lean-selection.js';
import {
  prunedViewPrototypeOf,
  viewConstructorOf,
  viewPrototypeOf,
  type ViewColumn,
} from './perf/lean-view-constructor.js';

/**
 * The columns a lean read (lean-read.ts) selects of an entity and how it builds views from them: every mapped
 * column, or those of a selection (lean-selection.ts), each shape built once.
 */
export interface LeanShape {
  table: string;
  columns: ViewColumn[];
  columnOf: Map<string, string>;
  /** The mapped columns, quoted and comma-separated: what a page or batch selects (never `*`). */
  selectList: string;
  /** Builds one view from one row. */
  toView: (row: Record<string, unknown>) => object;
  entity: EntityClass<object>;
  /** Shapes of some of the columns, per selected field set (a document's, kept by lean-selection.ts). */
  pruned?: WeakMap<ReadonlySet<string>, LeanShape>;
  prunedCount?: number;
}

/** Always read, whatever the selection: the id and the scope. */
const ALWAYS_READ = ['id', 'organizationId', 'environment'];
/** Pruned shapes per entity, bounded: each is a prepared statement's text and a view prototype. */
const MAX_PRUNED_SHAPES = 64;

/** The shape of the columns `selection` needs (lean-selection.ts), or the whole shape. */
export function selectedShape<T>(shape: LeanShape, selection: LeanSelection<T> | undefined): LeanShape {
  const fields = selection?.fields;
  if (!fields) return shape;
  let pruned = shape.pruned?.get(fields);
  if (pruned) return pruned;
  shape.pruned ??= new WeakMap();
  const wanted = new Set<string>(ALWAYS_READ);
  for (const field of fields) {
    if (field === '__typename') continue;
    const reads = selection.computed[field];
    if (reads) for (const property of reads) wanted.add(property);
    else if (shape.columnOf.has(field)) wanted.add(field);
    else wanted.add('*'); // a field neither mapped nor declared: every column
  }
  const columns = shape.columns.filter(({ property }) => wanted.has(property));
  if (wanted.has('*') || columns.length === shape.columns.length) {
    shape.pruned.set(fields, shape);
    return shape;
  }
  if ((shape.prunedCount ?? 0) >= MAX_PRUNED_SHAPES) return shape;
  const prototype = prunedViewPrototypeOf(
    shape.entity,
    columns.map(({ property }) => property),
    shape.columns.filter(({ property }) => !wanted.has(property)).map(({ property }) => property),
    shape.table,
  );
  pruned = {
    ...shape,
    columns,
    selectList: columns.map(({ column }) => quote(column)).join(', '),
    toView: viewConstructorOf(prototype, columns),
    pruned: undefined,
  };
  shape.pruned.set(fields, pruned);
  shape.prunedCount = (shape.prunedCount ?? 0) + 1;
  return pruned;
}

const shapes = new WeakMap<EntityMetadata, LeanShape>();

export const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

export function shapeOf(em: EntityManager, entity: EntityClass<object>): LeanShape {
  const meta = em.getMetadata().get(entity);
  let shape = shapes.get(meta);
  if (!shape) {
    const columns = meta.props
      // Columns PostgreSQL generates (folded search keys) serve its indexes, never a view: not read at all.
      .filter((prop) => prop.persist !== false && !prop.generated && prop.fieldNames?.length === 1)
      .filter((prop) => prop.kind === 'scalar' || (prop.kind === 'm:1' && prop.mapToPk))
      .map((prop) => ({
        property: prop.name,
        column: prop.fieldNames[0],
        // A `date` column read into a string (a day, not an instant) stays PostgreSQL's YYYY-MM-DD text.
        isDate: prop.runtimeType === 'Date' || /^timestamp/.test(prop.columnTypes?.[0] ?? ''),
      }));
    const prototype = viewPrototypeOf(
      entity,
      columns.map((column) => column.property),
    );
    shape = {
      table: meta.tableName,
      columns,
      columnOf: new Map(columns.map(({ property, column }) => [property, column])),
      selectList: columns.map(({ column }) => quote(column)).join(', '),
      toView: viewConstructorOf(prototype, columns),
      entity,
    };
    shapes.set(meta, shape);
  }
  return shape;
}
