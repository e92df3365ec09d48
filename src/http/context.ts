// What route handlers get: the store, and (in a process that also ingests) the ingest pipeline.
import type { Store } from '../storage/client.ts';
import type { Config } from '../config/config.ts';
import type { ServingStore } from '../serving/store.ts';
import type { ServingView } from '../serving/view.ts';
import type { NodeClient } from './proxy/node-client.ts';
import type { IngestStatus } from '../ingest/status.ts';

export interface ApiContext {
  store: Store;
  config: Pick<Config, 'chainId' | 'isMainnet' | 'analyticsSql'> & Partial<Pick<Config, 'readyMaxLag'>>;
  ingest?: IngestStatus;
  /** The serving store (rendered documents, per-principal keys) and its committed view. */
  serving?: { store: ServingStore; view: ServingView };
  /** The Stacks node pool, for the API's own node requests (set once the proxy is up). */
  node?: NodeClient;
  /** Moves whenever stored chain data changes (what the response cache keys on); a value read
   *  from the store may be kept while it stays the same. */
  dataVersion?: () => number;
}
