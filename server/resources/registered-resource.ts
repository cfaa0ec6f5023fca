import type { RecordFilterDefinition, ResourceDefinition, Slot } from '../../shared';
import type { ConfiguredFormSlot } from '../slots/configured-forms';
import type { Field } from './field';
import type { SortKeyKind } from '../storage/record-page-query';
import type { Relation } from './relation';
import type { Resource } from './resource';

/** A resource as registered: its fields and relations read once and checked. */
export interface RegisteredResource {
  readonly resource: Resource;
  readonly name: string;
  readonly label: string;
  /** Fields and slots, in order. */
  readonly items: readonly (Field | Slot)[];
  /** The ordinary fields only, by name. */
  readonly fields: ReadonlyMap<string, Field>;
  readonly relations: readonly Relation[];
  /** The list columns a list can be sorted by, and how each is ordered (`id` is always sortable, not listed). */
  readonly sortKeys: ReadonlyMap<string, SortKeyKind>;
  /** The list's filters by name: each with the record key it matches. */
  readonly filters: ReadonlyMap<string, RegisteredFilter>;
  /** What `GET /api/resources/:name` returns: code's items, with the form slots configuration places among them. */
  readonly definition: ResourceDefinition;
  /** The form slots configuration places in this form now, each with its index among the definition's fields. */
  readonly configuredFormSlots: ReadonlyArray<{ configured: ConfiguredFormSlot; position: number }>;
}

/** A filter as registered: its definition, and the key of record data it compares. */
export interface RegisteredFilter {
  readonly definition: RecordFilterDefinition;
  readonly key: string;
}

/** The registered resources as their readers look them up (the resource registry, by name or all in order). */
export interface RegisteredResources {
  get(name: string): RegisteredResource | undefined;
  list(): readonly RegisteredResource[];
}
