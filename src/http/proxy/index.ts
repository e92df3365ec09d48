// The node RPC proxy (`/v2/*` to a load-balanced pool of Stacks nodes): wiring surface for src/main.ts.
//
//   const proxy = createProxyPlugin(loadProxyConfig(process.env), { onBroadcastAccepted });
//   await proxy.ready();
//   const app = createApiApp(routes, ctx, [proxy.plugin]);
//   ... on shutdown: await proxy.close();
export { loadProxyConfig, parseNodeList, formatAddress, type ProxyConfig, type ProxyNodeAddress } from './config.ts';
export { createProxyPlugin, type ProxyPlugin, type ProxyPluginOptions } from './proxy.ts';
export type { ProxyLogger } from './pool.ts';
export { NodeUnavailable, type NodeClient, type NodeAnswer, type NodeRequest } from './node-client.ts';
