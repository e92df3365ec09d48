// JSON Schemas of the supply routes' answers (the reference API's entities, v8.15.4).
type S = Record<string, unknown>;

const str: S = { type: 'string' };
const obj = (title: string, properties: Record<string, S>): S => ({ title, type: 'object', properties, required: Object.keys(properties) });

export const SUPPLY_QUERY: S = {
  type: 'object',
  properties: { height: { type: 'integer', minimum: 0 }, unanchored: { type: 'boolean', default: false } },
};

export const STX_SUPPLY: S = obj('GetStxSupplyResponse', { unlocked_percent: str, total_stx: str, total_stx_year_2050: str, unlocked_stx: str, block_height: { type: 'integer' } });

export const STX_SUPPLY_LEGACY: S = obj('GetStxSupplyLegacyFormatResponse', {
  unlockedPercent: str,
  totalStacks: str,
  totalStacksFormatted: str,
  totalStacksYear2050: str,
  totalStacksYear2050Formatted: str,
  unlockedSupply: str,
  unlockedSupplyFormatted: str,
  blockHeight: str,
});

/** A plain-text decimal STX amount. */
export const STX_AMOUNT_TEXT: S = { title: 'StxAmountText', type: 'string', pattern: '^-?[0-9]+\\.[0-9]{6}$' };
