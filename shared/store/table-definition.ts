/**
 * The single table's shape, read by the CDK stack and by the local stack's CreateTable,
 * so AWS and DynamoDB Local never disagree.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
    /** sparse: only track items due for the quiet-vehicles check (keys.quietCheck); keys only, so a batch's write never copies the item */
    { name: 'quiet', partitionKey: 'quiet_pk', sortKey: 'quiet_due', projection: 'KEYS_ONLY' },
  ],
  /** items with this epoch-seconds attribute expire */
  ttlAttribute: 'expires_at',
  /** event items (entity 'event') reach the webhook router through the table's stream */
  stream: 'NEW_AND_OLD_IMAGES',
} as const;
