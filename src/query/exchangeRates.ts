import { readFileSync } from 'node:fs';
import { z } from 'zod';
import bundled from './exchange-rates.json' with { type: 'json' };

/**
 * Exchange rates for converting revenue into a goal's currency at query time: units of each
 * currency per one unit of `base`. The bundled snapshot is dated; operators supply a fresher
 * file with EXCHANGE_RATES_FILE in the same shape.
 */
export interface ExchangeRates {
  date: string;
  base: string;
  rates: Record<string, number>;
}

const fileSchema = z.object({
  date: z.string(),
  base: z.string().regex(/^[A-Z]{3}$/),
  rates: z.record(z.string().regex(/^[A-Z]{3}$/), z.number().positive()),
});

export function loadExchangeRates(file: string | null): ExchangeRates {
  const parsed = fileSchema.safeParse(file === null ? bundled : JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    throw new Error(`The exchange-rates file ${file ?? '(bundled)'} must be {"date", "base": "EUR", "rates": {"USD": 1.05, …}} with positive rates.`);
  }
  return { ...parsed.data, rates: { ...parsed.data.rates, [parsed.data.base]: 1 } };
}

/** Multipliers converting each known currency into `target`; empty when `target` has no rate. */
export function multipliersInto(rates: ExchangeRates, target: string): { from: string[]; multipliers: number[] } {
  const targetRate = rates.rates[target];
  if (targetRate === undefined) return { from: [target], multipliers: [1] };
  const from = Object.keys(rates.rates);
  return { from, multipliers: from.map((currency) => targetRate / rates.rates[currency]!) };
}
