/** A reward's page beyond its fields: the coupon pool and the Shopify discount switch. */
export const rewards = {
  coupons: {
    title: 'Coupon pool',
    available: 'Available:',
    issued: 'Issued:',
    dropLabel: 'Import codes from a CSV file (one code a line, no header)',
    choose: 'Choose CSV',
    dropHint: 'or drop it here',
    imported: 'Imported {imported} codes; {duplicates} duplicates skipped.',
    uploadFailed: 'The upload failed ({status}).',
    notSent: 'The upload could not be sent.',
  },
  discount: {
    title: 'Shopify discount',
    toggle: 'Issue as a Shopify discount',
    help: 'Each reward log gets its own code discount in Shopify: this reward’s type and value, for that customer only, one use, ending at the reward’s expiry. The loyalty service then hands out no code of its own.',
    failures: 'Discounts that could not be issued',
    columns: { rewardLog: 'Reward log', customer: 'Customer', reason: 'Reason' },
    retry: 'Retry',
    enabled: 'Rewards will be issued as Shopify discounts.',
    disabled: 'Rewards will no longer be issued as Shopify discounts.',
    retrying: 'Retrying the discount.',
    notFailed: 'That discount is no longer failed.',
  },
};
