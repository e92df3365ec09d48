// What the ingest side reports of itself: the API's /extended status and readiness, /metrics, and
// the API threads (by message) read it.
export interface IngestStatus {
  /** Newest durable event-log id. */
  receivedId(): number;
  /** Newest event-log id whose rows are stored. */
  processedId(): number;
  error(): { logId: number; path: string; message: string } | null;
  /** Blocks held for want of a parent (count, and the lowest few). */
  heldBlocks(): { count: number; blocks: Array<{ index_block_hash: string; block_height: number; parent_index_block_hash: string; log_id: number }> };
  /** Entries an operator set aside (the quarantine journal). */
  quarantined(): Array<{ id: number; path: string; reason: string; error?: string; at: string }>;
}
