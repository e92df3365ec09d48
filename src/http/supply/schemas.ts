// JSON Schemas of the supply routes (schemas/api/supply.json).
import { apiSchemas } from '../schema-home.ts';

const supply = apiSchemas('supply.json');

export const SUPPLY_QUERY = supply('SupplyQuery');
export const STX_SUPPLY = supply('GetStxSupplyResponse');
export const STX_SUPPLY_LEGACY = supply('GetStxSupplyLegacyFormatResponse');
/** A plain-text decimal STX amount. */
export const STX_AMOUNT_TEXT = supply('StxAmountText');
