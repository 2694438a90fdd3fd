/**
 * One stored entity's mapping, defined once: its keys (from keys.ts) and, per domain field, the attribute it is
 * stored under and how it converts. Items, domain objects and update expressions all come from it, so an
 * attribute name is written in one place and no repository spreads a domain object into an item.
 */
import type { IndexKey, Key } from './keys.ts';
import { type Item, setExpression } from './requests.ts';

/** How one domain field is stored: under `name`, written as `write` makes it (as it is by default), read back by `read`. */
export interface Field<V> {
  name: string;
  read: (stored: unknown) => V;
  write?: (value: V) => unknown;
}

/** Stored as it is and read back as it was stored. */
export const stored = <V>(name: string): Field<V> => ({ name, read: (value) => value as V });
export const text = (name: string): Field<string> => ({ name, read: (value) => String(value ?? '') });
export const nullableText = (name: string): Field<string | null> => ({
  name,
  read: (value) => (value === null || value === undefined ? null : String(value)),
});
export const number = (name: string): Field<number> => ({ name, read: Number });
export const nullableNumber = (name: string): Field<number | null> => ({
  name,
  read: (value) => (value === null || value === undefined ? null : Number(value)),
});
/** A number that is left off the item while it is null, so conditions can test its existence. */
export const absentWhenNull = (name: string): Field<number | null> => ({
  name,
  read: (value) => (value === undefined ? null : Number(value)),
  write: (value) => value ?? undefined,
});
/** A boolean stored as 1 or 0. */
export const flag = (name: string): Field<boolean> => ({ name, read: (value) => value === 1, write: Number });
/** A boolean stored as it is; anything but true reads as false. */
export const bool = (name: string): Field<boolean> => ({ name, read: (value) => value === true });
/** A list of values stored as a list of maps, each mapped by the entity of its own. */
export const list = <V>(name: string, of: Entity<V>): Field<V[]> => ({
  name,
  read: (value) => ((value ?? []) as Item[]).map(of.fromItem),
  write: (values) => values.map((value) => of.toItem(value)),
});

/** `Owner` is what the key needs beyond the value: the owning user's uid for items under a user's partition. */
export interface EntityDefinition<T, Owner = void> {
  /** where the item lives: its table key, plus its gsi1 key when it is listed through the index; none for a value nested in another item */
  keys?: (value: T, owner: Owner) => Key | (Key & Partial<IndexKey>);
  fields: { [F in keyof T]-?: Field<T[F]> };
  /** attributes computed from the value and stored beside its fields for whoever reads the table; never read back */
  derived?: (value: T) => Item;
}

export interface Entity<T, Owner = void> {
  toItem: (value: T, owner: Owner) => Item;
  fromItem: (item: Item) => T;
  /** the stored attributes of the fields given; undefined fields are left out */
  attributes: (values: Partial<T>) => Item;
  /** SET expression for the fields given (an edit keeps what it omits); undefined when there is nothing to change */
  update: (changes: Partial<T>) => ReturnType<typeof setExpression>;
}

export function defineEntity<T, Owner = void>(definition: EntityDefinition<T, Owner>): Entity<T, Owner> {
  const fields = Object.entries(definition.fields) as Array<[keyof T & string, Field<unknown>]>;
  const attributes = (values: Partial<T>): Item =>
    Object.fromEntries(
      fields.flatMap(([field, { name, write }]) => {
        const value = values[field];
        if (value === undefined) return [];
        const storedValue = write ? write(value) : value;
        return storedValue === undefined ? [] : [[name, storedValue]];
      }),
    );
  return {
    toItem: (value, owner) => ({ ...definition.keys?.(value, owner), ...attributes(value), ...definition.derived?.(value) }),
    // a loop, not entries mapped to pairs: every record a read answers passes here
    fromItem: (item) => {
      const value: Record<string, unknown> = {};
      for (const [field, { name, read }] of fields) {
        const fieldValue = read(item[name]);
        if (fieldValue !== undefined) value[field] = fieldValue;
      }
      return value as T;
    },
    attributes,
    update: (changes) => setExpression(attributes(changes)),
  };
}
