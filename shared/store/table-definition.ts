/**
 * The single table's shape, read by the CDK stack and by the local stack's CreateTable,
 * so AWS and DynamoDB Local never disagree.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
  /** items with this epoch-seconds attribute expire */
  ttlAttribute: 'expires_at',
  /** event items (entity 'event') reach the webhook router through the table's stream */
  stream: 'NEW_AND_OLD_IMAGES',
} as const;
