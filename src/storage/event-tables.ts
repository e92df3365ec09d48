// Which event tables hold a tx's events, as a bit set stored with the tx (txs.event_tables): a tx's
// events are read from those tables only, instead of probing all five by tx_id.
export const EVENT_TABLE_BIT = { stx_events: 1, stx_lock_events: 2, ft_events: 4, nft_events: 8, contract_logs: 16 } as const;

export type EventTable = keyof typeof EVENT_TABLE_BIT;

/** Rows stored before the column existed read as "any table". */
export const ALL_EVENT_TABLES = 31;
