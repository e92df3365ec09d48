// /rosetta/v1/network/*: the network we serve, what it allows, and where it stands (tip, genesis,
// the node pool's tip and peers).
import type { RouteDef } from '../route.ts';
import type { ApiContext } from '../context.ts';
import { SERVER_VERSION } from '../conventions/version.ts';
import { blockByHeight } from '../blocks/queries.ts';
import { BLOCKCHAIN, ERRORS, OPERATION_STATUSES, OPERATION_TYPES, ROSETTA_VERSION } from './constants.ts';
import { rosettaError } from './errors.ts';
import { networkName, rosettaBody } from './request.ts';
import { meshResponses, meshSchema } from './schemas.ts';
import { tipBlock } from './queries.ts';
import { blockTimestamp, identifierOf } from './block.ts';

const tags = ['Rosetta'];

/** How long /network/status waits for the node's peer list before answering without it. */
const PEERS_WAIT_MS = 2000;

async function peers(ctx: ApiContext): Promise<Array<{ peer_id: string }>> {
  if (!ctx.node) return [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answer = await Promise.race([
      ctx.node.request({ method: 'GET', path: '/v2/neighbors' }),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), PEERS_WAIT_MS))),
    ]);
    if (!answer || answer.status !== 200) return [];
    const body = JSON.parse(answer.body.toString('utf8')) as { inbound?: Array<{ public_key_hash?: string }>; outbound?: Array<{ public_key_hash?: string }> };
    const ids = new Set([...(body.inbound ?? []), ...(body.outbound ?? [])].map((n) => n.public_key_hash).filter((h): h is string => typeof h === 'string'));
    return [...ids].map((peer_id) => ({ peer_id }));
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}

export const networkRoutes: RouteDef<ApiContext>[] = [
  {
    method: 'post',
    path: '/rosetta/v1/network/list',
    summary: 'Networks served',
    tags,
    body: meshSchema('RosettaMetadataRequest'),
    responses: meshResponses('RosettaNetworkListResponse'),
    handler: async (req, ctx) => {
      rosettaBody(req, ctx, 'RosettaMetadataRequest');
      return { network_identifiers: [{ blockchain: BLOCKCHAIN, network: networkName(ctx) }] };
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/network/options',
    summary: 'Versions, operation types and statuses, errors',
    tags,
    body: meshSchema('RosettaNetworkRequest'),
    responses: meshResponses('RosettaNetworkOptionsResponse'),
    handler: async (req, ctx) => {
      rosettaBody(req, ctx, 'RosettaNetworkRequest');
      return {
        version: { rosetta_version: ROSETTA_VERSION, node_version: process.version, middleware_version: SERVER_VERSION },
        allow: {
          operation_statuses: OPERATION_STATUSES,
          operation_types: OPERATION_TYPES,
          errors: Object.values(ERRORS),
          historical_balance_lookup: true,
          // Mesh 1.5 fields: no /call methods, balances change only through operations, no UTXOs.
          call_methods: [],
          balance_exemptions: [],
          mempool_coins: false,
        },
      };
    },
  },
  {
    method: 'post',
    path: '/rosetta/v1/network/status',
    summary: 'Chain tip, genesis block, sync status and peers',
    tags,
    body: meshSchema('RosettaNetworkRequest'),
    responses: meshResponses('RosettaNetworkStatusResponse'),
    handler: async (req, ctx) => {
      rosettaBody(req, ctx, 'RosettaNetworkRequest');
      const [tip, genesis, peerList] = await Promise.all([tipBlock(ctx.store), blockByHeight(ctx.store, 1), peers(ctx)]);
      if (!tip || !genesis) throw rosettaError('blockNotFound', 'no block has been indexed yet');
      const current = tip.block_height;
      const target = ctx.node?.bestTip();
      const processing = ctx.ingest ? ctx.ingest.receivedId() - ctx.ingest.processedId() : 0;
      const sync_status =
        target === undefined
          ? { current_index: current, stage: 'no Stacks node answered: target unknown' }
          : { current_index: current, target_index: target, synced: current >= target && processing === 0 };
      return {
        current_block_identifier: identifierOf(tip),
        current_block_timestamp: blockTimestamp(tip),
        genesis_block_identifier: identifierOf(genesis),
        // We index from genesis: every block since is served.
        oldest_block_identifier: identifierOf(genesis),
        peers: peerList,
        current_burn_block_height: tip.burn_block_height,
        sync_status,
      };
    },
  },
];
