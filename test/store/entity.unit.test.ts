import { describe, expect, it } from 'vitest';
import { absentWhenNull, defineEntity, flag, list, nullableText, number, text } from '../../shared/store/entity.ts';

interface Part {
  partUid: number;
  label: string;
  note: string | null;
  binUid: number | null;
  fragile: boolean;
  sizes: Array<{ widthMm: number }>;
}

const sizeEntity = defineEntity<{ widthMm: number }>({ fields: { widthMm: number('width_mm') } });

const partEntity = defineEntity<Part, number>({
  keys: (part, ownerUid) => ({ pk: `USER#${ownerUid}`, sk: `PART#${part.partUid}` }),
  fields: {
    partUid: number('part_uid'),
    label: text('label'),
    note: nullableText('note'),
    binUid: absentWhenNull('bin_uid'),
    fragile: flag('fragile'),
    sizes: list('sizes', sizeEntity),
  },
});

const aPart: Part = { partUid: 7, label: 'Bolt', note: null, binUid: null, fragile: true, sizes: [{ widthMm: 12 }] };

describe('defineEntity', () => {
  it('stores each field under its attribute name, converted, beside the key', () => {
    expect(partEntity.toItem(aPart, 3)).toEqual({
      pk: 'USER#3',
      sk: 'PART#7',
      part_uid: 7,
      label: 'Bolt',
      note: null,
      fragile: 1,
      sizes: [{ width_mm: 12 }],
    });
  });

  it('reads back the value it stored, keys and unknown attributes left behind', () => {
    const item = { ...partEntity.toItem({ ...aPart, binUid: 4 }, 3), legacy: 'x' };
    expect(partEntity.fromItem(item)).toStrictEqual({ ...aPart, binUid: 4 });
  });

  it('leaves a null kept absent off the item and reads its absence as null', () => {
    const item = partEntity.toItem(aPart, 3);
    expect(item).not.toHaveProperty('bin_uid');
    expect(partEntity.fromItem(item).binUid).toBeNull();
  });

  it('sets only the fields an edit gives, under their attribute names', () => {
    expect(partEntity.update({ label: 'Nut', note: undefined, fragile: false })).toEqual({
      UpdateExpression: 'SET #f0 = :v0, #f1 = :v1',
      ExpressionAttributeNames: { '#f0': 'label', '#f1': 'fragile' },
      ExpressionAttributeValues: { ':v0': 'Nut', ':v1': 0 },
    });
  });

  it('has nothing to set when an edit gives no field', () => {
    expect(partEntity.update({})).toBeUndefined();
  });
});
