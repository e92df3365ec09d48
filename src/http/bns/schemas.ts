// JSON Schemas of the BNS routes (the reference API's entities, v8.15.4).
type S = Record<string, unknown>;

const str: S = { type: 'string' };
const obj = (properties: Record<string, S>, title?: string, required = Object.keys(properties)): S => ({ ...(title ? { title } : {}), type: 'object', properties, required });
const strings = (title: string): S => ({ title, type: 'array', items: str });

const unanchored = { type: 'boolean', default: false };
const page = { type: 'integer', minimum: 0, default: 0 };

export const NAMES_QUERY: S = { type: 'object', properties: { unanchored, page } };
export const UNANCHORED_QUERY: S = { type: 'object', properties: { unanchored } };
export const NAME_PARAMS: S = obj({ name: str });
export const ZONEFILE_HASH_PARAMS: S = obj({ name: str, zoneFileHash: str });
export const TLD_PARAMS: S = obj({ tld: str });
export const ADDRESS_PARAMS: S = obj({ blockchain: str, address: str });

export const BNS_ERROR: S = obj({ error: str }, 'BnsError');
export const NAME_LIST: S = strings('BnsGetAllNamesResponse');
export const SUBDOMAIN_LIST: S = strings('GetAllSubdomainsInName');
export const NAMESPACE_NAMES: S = strings('BnsGetAllNamespacesNamesResponse');
export const NAMESPACES: S = obj({ namespaces: { type: 'array', items: str } }, 'BnsGetAllNamespacesResponse');
export const ZONEFILE: S = obj({ zonefile: str }, 'BnsFetchFileZoneResponse');
export const NAME_INFO: S = obj(
  {
    address: str,
    blockchain: str,
    expire_block: { type: 'integer', minimum: 0 },
    grace_period: { type: 'integer', minimum: 0 },
    last_txid: str,
    resolver: str,
    status: str,
    zonefile: str,
    zonefile_hash: str,
  },
  'BnsGetNameInfoResponse',
  ['address', 'blockchain', 'last_txid', 'status', 'zonefile_hash'],
);
export const NAMES_BY_ADDRESS: S = obj({ names: { type: 'array', items: str } }, 'BnsNamesOwnByAddressResponse');
export const PRICE: S = obj({ units: str, amount: str }, 'BnsGetPriceResponse');
