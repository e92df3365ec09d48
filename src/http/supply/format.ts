// Decimal formatting of microSTX amounts as the reference prints them (BigNumber toFixed / toFormat).

const DECIMALS = 6;

/** microSTX -> STX with six decimals, e.g. 1500000n -> "1.500000". */
export function microStxToStx(micro: bigint): string {
  const neg = micro < 0n;
  const abs = neg ? -micro : micro;
  const scale = 10n ** BigInt(DECIMALS);
  return `${neg ? '-' : ''}${abs / scale}.${(abs % scale).toString().padStart(DECIMALS, '0')}`;
}

/** "1234567.500000" -> "1,234,567.500000" (thousands separators on the integer part). */
export function withThousands(decimal: string): string {
  const [int, frac] = decimal.split('.');
  const neg = int.startsWith('-');
  const digits = neg ? int.slice(1) : int;
  return `${neg ? '-' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac === undefined ? '' : `.${frac}`}`;
}

/** part / whole as a percentage with two decimals, rounded half up; "NaN" for 0 / 0 as the reference. */
export function percent(part: bigint, whole: bigint): string {
  if (whole === 0n) return part === 0n ? 'NaN' : part > 0n ? 'Infinity' : '-Infinity';
  const neg = part < 0n !== whole < 0n && part !== 0n;
  const p = part < 0n ? -part : part;
  const w = whole < 0n ? -whole : whole;
  const hundredths = (p * 10000n * 2n + w) / (2n * w);
  return `${neg ? '-' : ''}${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}`;
}
