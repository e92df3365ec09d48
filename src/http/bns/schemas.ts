// JSON Schemas of the BNS routes (schemas/api/bns.json).
import { apiSchemas } from '../schema-home.ts';

const bns = apiSchemas('bns.json');

export const NAMES_QUERY = bns('NamesQuery');
export const UNANCHORED_QUERY = bns('UnanchoredQuery');
export const NAME_PARAMS = bns('NameParams');
export const ZONEFILE_HASH_PARAMS = bns('ZoneFileHashParams');
export const TLD_PARAMS = bns('TldParams');
export const ADDRESS_PARAMS = bns('BnsAddressParams');

export const BNS_ERROR = bns('BnsError');
export const NAME_LIST = bns('BnsGetAllNamesResponse');
export const SUBDOMAIN_LIST = bns('GetAllSubdomainsInName');
export const NAMESPACE_NAMES = bns('BnsGetAllNamespacesNamesResponse');
export const NAMESPACES = bns('BnsGetAllNamespacesResponse');
export const ZONEFILE = bns('BnsFetchFileZoneResponse');
export const NAME_INFO = bns('BnsGetNameInfoResponse');
export const NAMES_BY_ADDRESS = bns('BnsNamesOwnByAddressResponse');
export const PRICE = bns('BnsGetPriceResponse');
